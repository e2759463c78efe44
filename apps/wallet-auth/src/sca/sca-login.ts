import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, CompleteScaLoginRequest, newId, RecordSecurityEventRequest, ScaLoginComplete, ScaLoginStart, SecurityState, StartScaLoginRequest } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, TransactionRunner } from '@paykit/persistence';
import { WALLET_AUTH_CONFIG, WalletAuthConfig } from '../config/wallet-auth-config';
import { ScaRepository } from './sca.repository';
import { LockState, SCA_MAX_ATTEMPTS, SCA_SESSION_TTL_MS } from './sca.rules';
import { ScaCustomers } from './sca-customers';
import { ScaProofs } from './sca-proofs';
import { hasVerifiedPhone, invalidProof, toSecurityState } from './sca.support';

/** Logins (a 180-day SCA session) and the security events that lock or clear them. */
@Injectable()
export class ScaLogin {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly proofs: ScaProofs,
    private readonly sca: ScaRepository,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    @Inject(WALLET_AUTH_CONFIG) private readonly config: WalletAuthConfig,
  ) {}

  async startLogin(ctx: CallerContext, request: StartScaLoginRequest): Promise<ScaLoginStart> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    const now = this.clock.now();
    await this.proofs.refuseLocked(ctx, customer.id, now);
    const active = await this.sca.activeFactors(ctx.platformId, customer.id);
    if (request.factor === 'TOTP') {
      if (!active.some((row) => row.type === 'TOTP')) throw ServiceError.invalidInput([{ field: 'factor', message: 'the customer has no TOTP factor enrolled' }]);
      return { factor: 'TOTP' };
    }
    if (request.factor === 'SMS_OTP' && !hasVerifiedPhone(customer)) throw ServiceError.invalidInput([{ field: 'factor', message: 'the customer has no verified phone number' }]);
    const passkey = active.find((row) => row.type === 'PASSKEY');
    if (request.factor === 'PASSKEY' && !passkey) throw ServiceError.invalidInput([{ field: 'factor', message: 'the customer has no passkey enrolled' }]);
    const challenge = await this.proofs.newChallenge(ctx, customer, {
      purpose: 'LOGIN',
      subjectId: customer.id,
      factor: request.factor,
      availableFactors: [request.factor],
      binding: { amount: '0', currency: 'LOGIN', payee: customer.id },
      now,
    });
    if (request.factor === 'SMS_OTP') return { factor: 'SMS_OTP', challengeId: challenge.id, expiresAt: challenge.expiresAt };
    return { factor: 'PASSKEY', passkeyOptions: challenge.passkeyAssertionOptions ?? null, allowedOrigins: [...this.config.allowedOrigins], relyingPartyId: this.config.rpId };
  }

  async completeLogin(ctx: CallerContext, request: CompleteScaLoginRequest): Promise<ScaLoginComplete> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    const now = this.clock.now();
    await this.proofs.refuseLocked(ctx, customer.id, now);
    let proven: boolean;
    if (request.factor === 'TOTP') {
      const totp = (await this.sca.activeFactors(ctx.platformId, customer.id)).find((row) => row.type === 'TOTP');
      if (!totp) throw ServiceError.invalidInput([{ field: 'factor', message: 'the customer has no TOTP factor enrolled' }]);
      if (!request.code) throw ServiceError.invalidInput([{ field: 'code', message: 'code is required for TOTP' }]);
      proven = await this.proofs.totpProofMatches(ctx, totp, request.code, now);
    } else {
      if (request.factor === 'SMS_OTP' && !request.challengeId) throw ServiceError.invalidInput([{ field: 'challengeId', message: 'challengeId is required for SMS_OTP' }]);
      const challenge =
        request.factor === 'SMS_OTP'
          ? await this.sca.challenge(ctx.platformId, customer.id, request.challengeId!)
          : await this.sca.latestPendingChallenge(ctx.platformId, customer.id, customer.id, ['LOGIN']);
      if (!challenge || challenge.purpose !== 'LOGIN' || challenge.factor !== request.factor || challenge.status !== 'PENDING' || challenge.expiresAt <= now) {
        throw invalidProof('The login challenge is unknown, used or expired: start the login again', 'CHALLENGE_EXPIRED');
      }
      proven = await this.proofs.proofMatches(ctx, challenge, challenge.bindingDigest, request);
      if (proven) await this.sca.settleChallenge(ctx.platformId, challenge.id, 'SATISFIED', now);
      else await this.sca.countWrongProof(ctx.platformId, challenge.id, SCA_MAX_ATTEMPTS);
    }
    if (!proven) {
      // A wrong proof is a failed login attempt: it counts towards the lock.
      const state = await this.proofs.recordFailure(ctx, customer.id, now);
      throw invalidProof('The proof is not valid', 'INVALID_CODE', { failedAttempts: state.failedAttempts });
    }
    const sessionExpiresAt = new Date(now.getTime() + SCA_SESSION_TTL_MS);
    await this.sca.insertSession(ctx.platformId, {
      id: newId('ScaSession'),
      customerId: customer.id,
      factor: request.factor,
      endUserIp: request.endUserIpAddress ?? null,
      createdAt: now,
      expiresAt: sessionExpiresAt,
    });
    return { status: 'SUCCESS', sessionExpiresAt: sessionExpiresAt.toISOString() };
  }

  async recordEvent(ctx: CallerContext, request: RecordSecurityEventRequest): Promise<SecurityState> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    const now = this.clock.now();
    if (request.eventType === 'RESET_PASSWORD_COMPLETED') {
      // A password reset ends every SCA session and clears the count and any lock, suspension included.
      const cleared: LockState = { failedAttempts: 0, lockLevel: 0, lockedUntil: null, suspended: false };
      await this.transactions.run(async (manager) => {
        await this.sca.revokeSessions(manager, ctx.platformId, customer.id, now);
        await this.sca.ensureLockRow(manager, ctx.platformId, customer.id, now);
        await this.sca.saveLockState(manager, ctx.platformId, customer.id, cleared, now);
      });
      return toSecurityState(request.eventType, cleared);
    }
    await this.proofs.refuseLocked(ctx, customer.id, now);
    return toSecurityState(request.eventType, await this.proofs.recordFailure(ctx, customer.id, now));
  }
}
