import { Injectable } from '@nestjs/common';
import {
  BeneficiaryTrustConfirm,
  BeneficiaryTrustQuery,
  BeneficiaryTrustStart,
  CallerContext,
  ConfirmBeneficiaryTrustRequest,
  Empty,
  IssueScaChallengeRequest,
  ResendScaChallengeRequest,
  ScaChallengeIssue,
  ScaFactor,
  StartBeneficiaryTrustRequest,
  VerifyScaChallengeRequest,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock } from '@paykit/persistence';
import { EnclaveKeysService } from '../keys/enclave-keys.service';
import { ScaRepository } from './sca.repository';
import { codeMacInput, SCA_RESEND_INTERVAL_MS, ScaBinding } from './sca.rules';
import { ScaCustomers } from './sca-customers';
import { ScaProofs } from './sca-proofs';
import { rateLimited } from './sca.support';

/** Challenges of money movements (asked by payments) and of trusting or untrusting a beneficiary. */
@Injectable()
export class ScaChallenges {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly proofs: ScaProofs,
    private readonly sca: ScaRepository,
    private readonly keys: EnclaveKeysService,
    private readonly clock: Clock,
  ) {}

  async issueChallenge(ctx: CallerContext, request: IssueScaChallengeRequest): Promise<ScaChallengeIssue> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    // A trusted beneficiary skips the per-payment ceremony of its payout.
    if (request.trustedPayeeCandidate !== undefined && (await this.sca.isTrusted(ctx.platformId, request.trustedPayeeCandidate))) return {};
    const active = await this.sca.activeFactors(ctx.platformId, customer.id);
    // TOTP cannot carry dynamic linking: a payment is authorized by SMS or passkey only.
    const availableFactors: ScaFactor[] = ['SMS_OTP', ...(active.some((row) => row.type === 'PASSKEY') ? (['PASSKEY'] as const) : [])];
    const preferred = request.preferredFactor;
    const factor: ScaFactor = preferred && availableFactors.includes(preferred) ? preferred : availableFactors.includes('PASSKEY') ? 'PASSKEY' : 'SMS_OTP';
    const challenge = await this.proofs.newChallenge(ctx, customer, {
      purpose: request.purpose,
      subjectId: request.subjectId,
      factor,
      availableFactors,
      binding: request.binding,
      now: this.clock.now(),
    });
    return { challenge };
  }

  async verifyChallenge(ctx: CallerContext, request: VerifyScaChallengeRequest): Promise<Empty> {
    await this.customers.regulated(ctx, request.customerId);
    await this.proofs.answerChallenge(ctx, request.customerId, request.challengeId, request.binding, request, true);
    return { ok: true };
  }

  async resendChallenge(ctx: CallerContext, request: ResendScaChallengeRequest): Promise<Empty> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    const now = this.clock.now();
    const challenge = await this.sca.challenge(ctx.platformId, customer.id, request.challengeId);
    if (!challenge || challenge.status !== 'PENDING' || challenge.expiresAt <= now)
      throw new ServiceError('CONFLICT', 'There is no pending challenge to re-send', { reason: 'NO_PENDING_CHALLENGE' });
    if (challenge.factor !== 'SMS_OTP') throw new ServiceError('CONFLICT', `A ${challenge.factor} challenge has no code to re-send`, { reason: 'FACTOR_NOT_RESENDABLE' });
    const waitMs = challenge.sentAt ? challenge.sentAt.getTime() + SCA_RESEND_INTERVAL_MS - now.getTime() : 0;
    if (waitMs > 0) throw rateLimited('The code was sent moments ago', waitMs);
    // The same challenge and expiry, a fresh code bound to the same payment.
    const code = this.proofs.codeFor(ctx);
    await this.sca.resent(ctx.platformId, challenge.id, this.keys.mac(codeMacInput(challenge.id, challenge.bindingDigest, code)), now);
    await this.proofs.deliver(ctx, customer, code);
    return { ok: true };
  }

  async startTrust(ctx: CallerContext, request: StartBeneficiaryTrustRequest): Promise<BeneficiaryTrustStart> {
    const customer = await this.customers.beneficiaryOwner(ctx, request.externalAccountId);
    const challenge = await this.proofs.newChallenge(ctx, customer, {
      purpose: request.trusted ? 'BENEFICIARY_TRUST' : 'BENEFICIARY_UNTRUST',
      subjectId: request.externalAccountId,
      factor: 'SMS_OTP',
      availableFactors: ['SMS_OTP'],
      binding: trustBinding(request.externalAccountId, request.trusted),
      now: this.clock.now(),
    });
    return { scaChallenge: challenge };
  }

  async confirmTrust(ctx: CallerContext, request: ConfirmBeneficiaryTrustRequest): Promise<BeneficiaryTrustConfirm> {
    const customer = await this.customers.beneficiaryOwner(ctx, request.externalAccountId);
    const purpose = request.trusted ? 'BENEFICIARY_TRUST' : 'BENEFICIARY_UNTRUST';
    const challenge = request.challengeId
      ? await this.sca.challenge(ctx.platformId, customer.id, request.challengeId)
      : await this.sca.latestPendingChallenge(ctx.platformId, customer.id, request.externalAccountId, [purpose]);
    if (!challenge || challenge.purpose !== purpose || challenge.subjectId !== request.externalAccountId) {
      throw new ServiceError('CONFLICT', `No pending ${request.trusted ? 'trust' : 'untrust'} challenge for ${request.externalAccountId}: start it first`, {
        reason: 'NO_PENDING_CHALLENGE',
      });
    }
    await this.proofs.answerChallenge(ctx, customer.id, challenge.id, trustBinding(request.externalAccountId, request.trusted), request, false);
    await this.sca.setTrusted(ctx.platformId, request.externalAccountId, customer.id, request.trusted, this.clock.now());
    return { trusted: request.trusted };
  }

  async getTrust(ctx: CallerContext, request: BeneficiaryTrustQuery): Promise<BeneficiaryTrustConfirm> {
    return { trusted: await this.sca.isTrusted(ctx.platformId, request.externalAccountId) };
  }
}

/** Trust and untrust are bound to the account and the direction of the change. */
function trustBinding(externalAccountId: string, trusted: boolean): ScaBinding {
  return { amount: '0', currency: trusted ? 'TRUST' : 'UNTRUST', payee: externalAccountId };
}
