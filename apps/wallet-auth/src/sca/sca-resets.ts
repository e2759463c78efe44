import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  CallerContext,
  CompleteTwoFactorResetRequest,
  CUSTOMERS_SUBJECTS,
  Empty,
  newId,
  SandboxLivenessRequest,
  StartTwoFactorResetRequest,
  TwoFactorResetIdRequest,
  TwoFactorResetStart,
  TwoFactorResetStatus,
  UpdateCustomerBody,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, TransactionRunner } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { isSandboxCaller, WALLET_AUTH_CONFIG, WalletAuthConfig } from '../config/wallet-auth-config';
import { ScaRepository, ScaResetRow } from './sca.repository';
import { DAY_MS, SCA_RESET_TTL_MS, SCA_RESETS_PER_DAY } from './sca.rules';
import { ScaCustomers } from './sca-customers';
import { digest, hasVerifiedPhone, rateLimited } from './sca.support';

/** 2FA resets: a liveness check (driven in the sandbox), then the lost factor removed or the phone replaced. */
@Injectable()
export class ScaResets {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly sca: ScaRepository,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    @Inject(WALLET_AUTH_CONFIG) private readonly config: WalletAuthConfig,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  async startReset(ctx: CallerContext, request: StartTwoFactorResetRequest): Promise<TwoFactorResetStart> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    const now = this.clock.now();
    const enrolled =
      request.factor === 'SMS_OTP' ? hasVerifiedPhone(customer) : (await this.sca.activeFactors(ctx.platformId, customer.id)).some((row) => row.type === request.factor);
    if (!enrolled) throw ServiceError.invalidInput([{ field: 'factor', message: `the customer has no ${request.factor} factor to reset` }]);
    const recent = await this.sca.countResetsSince(ctx.platformId, customer.id, new Date(now.getTime() - DAY_MS));
    if (recent.count >= SCA_RESETS_PER_DAY) throw rateLimited(`At most ${SCA_RESETS_PER_DAY} resets per 24 hours`, recent.oldest!.getTime() + DAY_MS - now.getTime());
    const id = newId('TwoFactorReset');
    const livenessAccessToken = randomBytes(24).toString('base64url');
    const expiresAt = new Date(now.getTime() + SCA_RESET_TTL_MS);
    await this.sca.insertReset(ctx.platformId, {
      id,
      customerId: customer.id,
      factor: request.factor,
      expiresAt,
      createdAt: now,
      livenessTokenDigest: digest(livenessAccessToken),
    });
    return { resetId: id, livenessAccessToken, expiresAt: expiresAt.toISOString() };
  }

  async getReset(ctx: CallerContext, request: TwoFactorResetIdRequest): Promise<TwoFactorResetStatus> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    return this.resetStatus(ctx, customer.id, await this.requireReset(ctx, customer.id, request.resetId));
  }

  async completeReset(ctx: CallerContext, request: CompleteTwoFactorResetRequest): Promise<Empty> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    const reset = await this.requireReset(ctx, customer.id, request.resetId);
    const now = this.clock.now();
    if (reset.status !== 'LIVENESS_PASSED' || reset.expiresAt <= now) {
      throw new ServiceError('INVALID_INPUT', `The reset is ${resetStatusAt(reset, now)}: it completes once liveness has passed`, { reason: 'RESET_NOT_READY' });
    }
    if (reset.factor === 'SMS_OTP') {
      if (!request.mobile) throw ServiceError.invalidInput([{ field: 'mobile', message: 'mobile is required to reset SMS_OTP' }]);
      // The new number becomes the customer's (the customers service owns the phone).
      await this.services.request(
        CUSTOMERS_SUBJECTS.updateCustomer,
        {
          customerId: customer.id,
          changes: Object.assign(new UpdateCustomerBody(), { customerType: customer.customerType, phoneNumber: `${request.mobile.countryCode}${request.mobile.number}` }),
          signedRetry: { requestDigest: digest(`sca-reset:${reset.id}`) },
        },
        ctx,
      );
    }
    await this.transactions.run(async (manager) => {
      if (!(await this.sca.moveReset(ctx.platformId, reset.id, ['LIVENESS_PASSED'], 'COMPLETED', now, manager))) {
        throw new ServiceError('INVALID_INPUT', 'The reset is no longer ready to complete', { reason: 'RESET_NOT_READY' });
      }
      if (reset.factor !== 'SMS_OTP') await this.sca.deleteFactorIn(manager, ctx.platformId, customer.id, reset.factor, now);
    });
    return { ok: true };
  }

  /** The sandbox's liveness check: the platform says how it went. */
  async simulateLiveness(ctx: CallerContext, request: SandboxLivenessRequest): Promise<TwoFactorResetStatus> {
    // The gateway already refuses /sandbox/* outside the sandbox; a production caller never drives liveness.
    if (!isSandboxCaller(this.config, ctx)) throw new ServiceError('FORBIDDEN', 'The liveness outcome is simulated for sandbox callers only');
    const customer = await this.customers.regulated(ctx, request.customerId);
    const reset = await this.requireReset(ctx, customer.id, request.resetId);
    const from: ScaResetRow['status'][] = request.outcome === 'PENDING_REVIEW' ? ['INITIATED'] : ['INITIATED', 'PENDING_REVIEW'];
    if (!(await this.sca.moveReset(ctx.platformId, reset.id, from, request.outcome, this.clock.now()))) {
      throw new ServiceError('CONFLICT', `The reset is ${resetStatusAt(reset, this.clock.now())}: its liveness cannot move to ${request.outcome}`);
    }
    return this.resetStatus(ctx, customer.id, (await this.sca.reset(ctx.platformId, customer.id, reset.id))!);
  }

  private async requireReset(ctx: CallerContext, customerId: string, resetId: string): Promise<ScaResetRow> {
    const reset = await this.sca.reset(ctx.platformId, customerId, resetId);
    if (!reset) throw new ServiceError('REFERENCE_NOT_FOUND', `Reset ${resetId} not found`);
    return reset;
  }

  private async resetStatus(ctx: CallerContext, customerId: string, reset: ScaResetRow): Promise<TwoFactorResetStatus> {
    const now = this.clock.now();
    let enrollmentStatus: 'PENDING' | 'COMPLETED' | null = null;
    if (reset.factor !== 'SMS_OTP') {
      const replaced =
        reset.completedAt !== null && (await this.sca.activeFactors(ctx.platformId, customerId)).some((row) => row.type === reset.factor && row.createdAt > reset.completedAt!);
      enrollmentStatus = replaced ? 'COMPLETED' : 'PENDING';
    }
    return {
      status: resetStatusAt(reset, now),
      factor: reset.factor,
      enrollmentStatus,
      expiresAt: reset.expiresAt.toISOString(),
      completedAt: reset.completedAt ? reset.completedAt.toISOString() : null,
    };
  }
}

/** A reset not finished when its window closes reads EXPIRED. */
function resetStatusAt(reset: ScaResetRow, now: Date): TwoFactorResetStatus['status'] {
  return reset.status !== 'COMPLETED' && reset.status !== 'REJECTED' && reset.expiresAt <= now ? 'EXPIRED' : reset.status;
}
