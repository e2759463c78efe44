import { randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, Customer, newId, ScaChallenge, ScaChallengePurpose, ScaFactor, ScaProofInput } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, TransactionRunner } from '@paykit/persistence';
import { OTP_SENDER, OtpSender } from '../credentials/otp-sender';
import { isSandboxCaller, WALLET_AUTH_CONFIG, WalletAuthConfig } from '../config/wallet-auth-config';
import { base32Decode, totpMatchedStep } from '../crypto/totp';
import { PasskeyAssertion, verifyPasskeyAssertion, WebAuthnError } from '../crypto/webauthn';
import { EnclaveKeysService } from '../keys/enclave-keys.service';
import { ScaChallengeRow, ScaFactorRow, ScaRepository } from './sca.repository';
import { afterFailedAttempt, bindingDigest, codeMacInput, isLocked, LockState, passkeyChallengeOf, SCA_CHALLENGE_TTL_MS, SCA_MAX_ATTEMPTS, ScaBinding } from './sca.rules';
import { isSandboxScaCode, SCA_SANDBOX_CODE } from './sca.sandbox';
import { accountLocked, invalidProof, rateLimited } from './sca.support';

/**
 * The steps every SCA use case shares: challenges bound to what they authorize (dynamic linking)
 * and their codes, proofs (SMS code, TOTP, passkey assertion), and the login lock.
 */
@Injectable()
export class ScaProofs {
  constructor(
    private readonly sca: ScaRepository,
    private readonly keys: EnclaveKeysService,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    @Inject(WALLET_AUTH_CONFIG) private readonly config: WalletAuthConfig,
    @Inject(OTP_SENDER) private readonly otpSender: OtpSender,
  ) {}

  async newChallenge(
    ctx: CallerContext,
    customer: Customer,
    input: { purpose: ScaChallengePurpose; subjectId: string; factor: ScaFactor; availableFactors: ScaFactor[]; binding: ScaBinding; now: Date },
  ): Promise<ScaChallenge> {
    const id = newId('ScaChallenge');
    const bound = bindingDigest(input.binding);
    const expiresAt = new Date(input.now.getTime() + SCA_CHALLENGE_TTL_MS);
    const code = input.factor === 'SMS_OTP' ? this.codeFor(ctx) : undefined;
    await this.sca.insertChallenge(ctx.platformId, {
      id,
      customerId: customer.id,
      purpose: input.purpose,
      subjectId: input.subjectId,
      factor: input.factor,
      availableFactors: input.availableFactors,
      bindingDigest: bound,
      codeDigest: code ? this.keys.mac(codeMacInput(id, bound, code)) : null,
      sentAt: code ? input.now : null,
      expiresAt,
      createdAt: input.now,
    });
    if (code) await this.deliver(ctx, customer, code);
    const passkeys = input.availableFactors.includes('PASSKEY') ? (await this.sca.activeFactors(ctx.platformId, customer.id)).filter((row) => row.type === 'PASSKEY') : [];
    return {
      id,
      expiresAt: expiresAt.toISOString(),
      factor: input.factor,
      availableFactors: input.availableFactors,
      purpose: input.purpose,
      ...(passkeys.length > 0
        ? {
            passkeyAssertionOptions: {
              // The client signs this text (UTF-8): it is derived from the payment's binding.
              challenge: passkeyChallengeOf(id, bound),
              rpId: this.config.rpId,
              allowCredentials: passkeys.map((row) => ({ type: 'public-key', id: row.credentialId })),
              userVerification: 'preferred',
              timeout: SCA_CHALLENGE_TTL_MS,
            },
            passkeyAllowedOrigins: [...this.config.allowedOrigins],
          }
        : {}),
    };
  }

  /**
   * Answers a challenge with a proof. The binding the caller sends now must be the one the
   * challenge was issued for (dynamic linking): any change to the payment invalidates it.
   * Money movements need an open SCA session; a locked customer answers 423.
   */
  async answerChallenge(ctx: CallerContext, customerId: string, challengeId: string, binding: ScaBinding, proof: ScaProofInput, needsSession: boolean): Promise<void> {
    const now = this.clock.now();
    const challenge = await this.sca.challenge(ctx.platformId, customerId, challengeId);
    if (!challenge || challenge.status === 'SATISFIED') throw new ServiceError('CONFLICT', 'There is no pending challenge to authorize', { reason: 'NO_PENDING_CHALLENGE' });
    await this.refuseLocked(ctx, customerId, now);
    if (needsSession && !(await this.sca.hasActiveSession(ctx.platformId, customerId, now))) {
      throw new ServiceError('SCA_SESSION_REQUIRED', "The customer's SCA login session is missing or expired: log in (POST /sca/login/start, /complete), then authorize again");
    }
    if (challenge.status === 'INVALIDATED' || challenge.attempts >= SCA_MAX_ATTEMPTS) {
      throw rateLimited(`The challenge took ${SCA_MAX_ATTEMPTS} wrong proofs and is invalidated`, Math.max(challenge.expiresAt.getTime() - now.getTime(), 1000));
    }
    if (challenge.expiresAt <= now) throw invalidProof('The challenge has expired', 'CHALLENGE_EXPIRED');
    const current = bindingDigest(binding);
    if (current !== challenge.bindingDigest) {
      await this.sca.settleChallenge(ctx.platformId, challenge.id, 'INVALIDATED', now);
      throw invalidProof('The payment changed after the challenge was issued (amount, currency or payee): the authorization no longer applies', 'DYNAMIC_LINKING_MISMATCH');
    }
    if (!(await this.proofMatches(ctx, challenge, current, proof))) {
      const attempts = await this.sca.countWrongProof(ctx.platformId, challenge.id, SCA_MAX_ATTEMPTS);
      throw invalidProof('The proof is not valid', 'INVALID_CODE', { attemptsRemaining: Math.max(SCA_MAX_ATTEMPTS - attempts, 0) });
    }
    if (!(await this.sca.settleChallenge(ctx.platformId, challenge.id, 'SATISFIED', now))) {
      throw new ServiceError('CONFLICT', 'The challenge was answered concurrently', { reason: 'NO_PENDING_CHALLENGE' });
    }
  }

  /** A code (SMS: its MAC over challenge, binding and code) or a passkey assertion over the binding's challenge. */
  async proofMatches(ctx: CallerContext, challenge: ScaChallengeRow, bound: string, proof: ScaProofInput): Promise<boolean> {
    if (proof.passkeyAssertion) {
      if (!challenge.availableFactors.includes('PASSKEY')) return false;
      const origin = proof.origin ?? '';
      if (!this.config.allowedOrigins.includes(origin)) return false;
      const assertion = proof.passkeyAssertion as unknown as PasskeyAssertion;
      const passkey = (await this.sca.activeFactors(ctx.platformId, challenge.customerId)).find((row) => row.type === 'PASSKEY' && row.credentialId === assertion.credentialId);
      if (!passkey) return false;
      try {
        const verified = await verifyPasskeyAssertion({
          assertion,
          expectedChallenge: passkeyChallengeOf(challenge.id, bound),
          relyingParty: { rpId: this.config.rpId, allowedOrigins: [origin] },
          credential: { credentialId: passkey.credentialId!, publicKey: Buffer.from(passkey.publicKey!, 'base64url'), counter: passkey.counter },
        });
        return await this.sca.advanceCounter(ctx.platformId, passkey.id, passkey.counter, verified.newCounter);
      } catch (error) {
        if (error instanceof WebAuthnError) return false;
        throw error;
      }
    }
    if (!proof.code) return false;
    if (challenge.factor !== 'SMS_OTP' && !challenge.availableFactors.includes('SMS_OTP')) return false;
    if (isSandboxCaller(this.config, ctx) && isSandboxScaCode(proof.code)) return true;
    return challenge.codeDigest !== null && this.keys.macMatches(codeMacInput(challenge.id, bound, proof.code), challenge.codeDigest);
  }

  /** A right code of a time step not used before (a replayed code counts as wrong). */
  async totpProofMatches(ctx: CallerContext, factor: ScaFactorRow, code: string, now: Date): Promise<boolean> {
    if (isSandboxCaller(this.config, ctx) && isSandboxScaCode(code)) return true;
    const step = totpMatchedStep(base32Decode(this.keys.open(factor.secretSealed!)), code, now);
    return step !== undefined && (await this.sca.claimTotpStep(ctx.platformId, factor.id, step));
  }

  codeFor(ctx: CallerContext): string {
    return isSandboxCaller(this.config, ctx) ? SCA_SANDBOX_CODE : randomInt(0, 1_000_000).toString().padStart(6, '0');
  }

  async deliver(ctx: CallerContext, customer: Customer, code: string): Promise<void> {
    // Sandbox callers use the fixed code: nothing is sent.
    if (isSandboxCaller(this.config, ctx) || !customer.phoneNumber) return;
    await this.otpSender.send('SMS', customer.phoneNumber, code);
  }

  async refuseLocked(ctx: CallerContext, customerId: string, now: Date): Promise<void> {
    const state = await this.sca.lockState(ctx.platformId, customerId);
    if (isLocked(state, now)) throw accountLocked(state);
  }

  /** One more failed login attempt, under the row's lock; the fifth of each five escalates the lock. */
  recordFailure(ctx: CallerContext, customerId: string, now: Date): Promise<LockState> {
    return this.transactions.run(async (manager) => {
      await this.sca.ensureLockRow(manager, ctx.platformId, customerId, now);
      const next = afterFailedAttempt(await this.sca.lockState(ctx.platformId, customerId, manager, true), now);
      await this.sca.saveLockState(manager, ctx.platformId, customerId, next, now);
      return next;
    });
  }
}
