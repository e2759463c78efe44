import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  BeneficiaryTrustConfirm,
  BeneficiaryTrustQuery,
  BeneficiaryTrustStart,
  CallerContext,
  CompleteScaLoginRequest,
  CompleteTwoFactorResetRequest,
  ConfirmBeneficiaryTrustRequest,
  ConfirmScaFactorRequest,
  Customer,
  CUSTOMERS_SUBJECTS,
  DeleteScaFactorRequest,
  Empty,
  EnrollScaFactorRequest,
  EXTERNAL_ACCOUNTS_SUBJECTS,
  IssueScaChallengeRequest,
  isScaRegulated,
  newId,
  RecordSecurityEventRequest,
  ResendScaChallengeRequest,
  SandboxLivenessRequest,
  ScaChallenge,
  ScaChallengeIssue,
  ScaChallengePurpose,
  ScaCustomerQuery,
  ScaEnrollmentConfirm,
  ScaEnrollmentStart,
  ScaFactor,
  ScaFactorList,
  ScaFactorView,
  ScaLoginComplete,
  ScaLoginStart,
  ScaProofInput,
  SecurityState,
  StartBeneficiaryTrustRequest,
  StartScaLoginRequest,
  StartTwoFactorResetRequest,
  TwoFactorResetIdRequest,
  TwoFactorResetStart,
  TwoFactorResetStatus,
  UpdateCustomerBody,
  VerifyScaChallengeRequest,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, isUniqueViolation, TransactionRunner } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { OTP_SENDER, OtpSender } from '../credentials/otp-sender';
import { isSandboxCaller, WALLET_AUTH_CONFIG, WalletAuthConfig } from '../config/wallet-auth-config';
import { base32Decode, base32Encode, totpMatchedStep } from '../crypto/totp';
import { PasskeyAssertion, verifyPasskeyAssertion, verifyPasskeyRegistration, WebAuthnError } from '../crypto/webauthn';
import { EnclaveKeysService } from '../keys/enclave-keys.service';
import { ScaChallengeRow, ScaFactorRow, ScaRepository, ScaResetRow } from './sca.repository';
import {
  afterFailedAttempt,
  bindingDigest,
  codeMacInput,
  DAY_MS,
  isLocked,
  LockState,
  passkeyChallengeOf,
  SCA_CHALLENGE_TTL_MS,
  SCA_MAX_ATTEMPTS,
  SCA_RESEND_INTERVAL_MS,
  SCA_RESET_TTL_MS,
  SCA_RESETS_PER_DAY,
  SCA_SESSION_TTL_MS,
  ScaBinding,
} from './sca.rules';
import { isSandboxScaCode, SCA_SANDBOX_CODE } from './sca.sandbox';

const TOTP_ISSUER = 'Paykit';
const RECOVERY_CODES = 8;

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function invalidProof(message: string, reason: string, details: Record<string, unknown> = {}): ServiceError {
  return new ServiceError('INVALID_INPUT', message, { reason, ...details });
}

function recoveryCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const group = () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${group()}-${group()}-${group()}`;
}

/**
 * Strong Customer Authentication of SCA-regulated customers (an address in the EEA,
 * `isScaRegulated`): factors, logins and their 180-day sessions, the login lock, challenges of
 * money movements bound to amount, currency and payee (dynamic linking), trusted beneficiaries
 * and 2FA resets. Anyone else answers 409.
 */
@Injectable()
export class ScaService {
  constructor(
    private readonly sca: ScaRepository,
    private readonly keys: EnclaveKeysService,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    @Inject(WALLET_AUTH_CONFIG) private readonly config: WalletAuthConfig,
    @Inject(OTP_SENDER) private readonly otpSender: OtpSender,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  // ---- factors ----

  async listFactors(ctx: CallerContext, request: ScaCustomerQuery): Promise<ScaFactorList> {
    const customer = await this.regulated(ctx, request.customerId);
    const factors: ScaFactorView[] = hasVerifiedPhone(customer) ? [{ factor: 'SMS_OTP', name: 'Verified phone' }] : [];
    for (const row of await this.sca.activeFactors(ctx.platformId, customer.id)) {
      factors.push(row.type === 'PASSKEY' ? { factor: 'PASSKEY', credentialId: row.credentialId!, name: 'Passkey' } : { factor: 'TOTP', name: 'Authenticator app' });
    }
    return { factors };
  }

  async enrollFactor(ctx: CallerContext, request: EnrollScaFactorRequest): Promise<ScaEnrollmentStart> {
    const customer = await this.regulated(ctx, request.customerId);
    const active = await this.sca.activeFactors(ctx.platformId, customer.id);
    const now = this.clock.now();
    if (request.type === 'PASSKEY') {
      if (active.some((row) => row.type === 'PASSKEY')) {
        throw new ServiceError('PASSKEY_ALREADY_ENROLLED', 'The customer already has a passkey; delete it (DELETE /sca/factors/{credentialId}) before enrolling another');
      }
      const challenge = randomBytes(32).toString('base64url');
      await this.sca.insertFactor(ctx.platformId, {
        id: newId('ScaFactor'),
        customerId: customer.id,
        type: 'PASSKEY',
        secretSealed: null,
        secretDigest: null,
        enrollmentChallenge: challenge,
        createdAt: now,
      });
      return {
        type: 'PASSKEY',
        options: {
          challenge,
          rp: { id: this.config.rpId, name: TOTP_ISSUER },
          user: { id: Buffer.from(customer.id, 'utf8').toString('base64url'), name: customer.email ?? customer.id, displayName: customer.fullName ?? customer.id },
          pubKeyCredParams: [
            { type: 'public-key', alg: -7 },
            { type: 'public-key', alg: -257 },
          ],
          timeout: SCA_CHALLENGE_TTL_MS,
          attestation: 'none',
          authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        },
        allowedOrigins: [...this.config.allowedOrigins],
        relyingPartyId: this.config.rpId,
      };
    }
    if (active.some((row) => row.type === 'TOTP')) {
      throw new ServiceError('CONFLICT', 'The customer already has an authenticator app enrolled; reset it (POST /sca/factors/reset) to enroll another', {
        reason: 'TOTP_ALREADY_ENROLLED',
      });
    }
    const secretBytes = randomBytes(20);
    const secretBase32Encoded = base32Encode(secretBytes);
    const secret = secretBytes.toString('hex');
    await this.sca.insertFactor(ctx.platformId, {
      id: newId('ScaFactor'),
      customerId: customer.id,
      type: 'TOTP',
      // The secret is kept sealed; its digest finds the enrollment the confirmation threads back.
      secretSealed: this.keys.seal(secretBase32Encoded),
      secretDigest: digest(secret),
      enrollmentChallenge: null,
      createdAt: now,
    });
    const label = encodeURIComponent(`${TOTP_ISSUER}:${customer.email ?? customer.id}`);
    return { type: 'TOTP', secret, secretBase32Encoded, totpUri: `otpauth://totp/${label}?secret=${secretBase32Encoded}&issuer=${TOTP_ISSUER}&algorithm=SHA1&digits=6&period=30` };
  }

  async confirmFactor(ctx: CallerContext, request: ConfirmScaFactorRequest): Promise<ScaEnrollmentConfirm> {
    const customer = await this.regulated(ctx, request.customerId);
    const now = this.clock.now();
    if (request.type === 'TOTP') {
      const pending = await this.sca.pendingTotp(ctx.platformId, customer.id, digest(request.secret!));
      if (!pending) throw ServiceError.invalidInput([{ field: 'secret', message: 'secret names no TOTP enrollment of this customer (start one with POST /sca/factors)' }]);
      if (!(await this.totpProofMatches(ctx, pending, request.code!, now))) throw invalidProof('The TOTP code is not valid', 'INVALID_CODE');
      const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
      await this.activate(ctx, pending, { recoveryCodeDigests: codes.map((code) => this.keys.mac(code)) }, now);
      return { type: 'TOTP', recoveryCodes: codes };
    }
    const pending = await this.sca.latestPendingPasskey(ctx.platformId, customer.id);
    if (!pending) throw ServiceError.invalidInput([{ field: 'credential', message: 'no passkey enrollment of this customer is open (start one with POST /sca/factors)' }]);
    const origin = request.origin!;
    if (!this.config.allowedOrigins.includes(origin)) throw ServiceError.invalidInput([{ field: 'origin', message: 'origin is not one of the allowedOrigins' }]);
    let verified: Awaited<ReturnType<typeof verifyPasskeyRegistration>>;
    try {
      verified = await verifyPasskeyRegistration({
        attestation: request.credential as unknown as RegistrationResponseJSON,
        expectedChallenge: pending.enrollmentChallenge!,
        relyingParty: { rpId: this.config.rpId, allowedOrigins: [origin] },
      });
    } catch (error) {
      if (error instanceof WebAuthnError) throw invalidProof(`The passkey credential is not valid: ${error.reason}`, 'INVALID_PASSKEY');
      throw error;
    }
    await this.activate(ctx, pending, { credentialId: verified.credentialId, publicKey: Buffer.from(verified.publicKey).toString('base64url'), counter: verified.counter }, now);
    return { type: 'PASSKEY', factor: { factor: 'PASSKEY', credentialId: verified.credentialId, name: 'Passkey' } };
  }

  async deleteFactor(ctx: CallerContext, request: DeleteScaFactorRequest): Promise<Empty> {
    const customer = await this.regulated(ctx, request.customerId);
    if (!(await this.sca.deleteActiveFactor(ctx.platformId, customer.id, { type: 'PASSKEY', credentialId: request.credentialId }, this.clock.now()))) {
      throw new ServiceError('REFERENCE_NOT_FOUND', `Factor ${request.credentialId} not found`);
    }
    return { ok: true };
  }

  // ---- login ----

  async startLogin(ctx: CallerContext, request: StartScaLoginRequest): Promise<ScaLoginStart> {
    const customer = await this.regulated(ctx, request.customerId);
    const now = this.clock.now();
    await this.refuseLocked(ctx, customer.id, now);
    const active = await this.sca.activeFactors(ctx.platformId, customer.id);
    if (request.factor === 'TOTP') {
      if (!active.some((row) => row.type === 'TOTP')) throw ServiceError.invalidInput([{ field: 'factor', message: 'the customer has no TOTP factor enrolled' }]);
      return { factor: 'TOTP' };
    }
    if (request.factor === 'SMS_OTP' && !hasVerifiedPhone(customer)) throw ServiceError.invalidInput([{ field: 'factor', message: 'the customer has no verified phone number' }]);
    const passkey = active.find((row) => row.type === 'PASSKEY');
    if (request.factor === 'PASSKEY' && !passkey) throw ServiceError.invalidInput([{ field: 'factor', message: 'the customer has no passkey enrolled' }]);
    const challenge = await this.newChallenge(ctx, customer, {
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
    const customer = await this.regulated(ctx, request.customerId);
    const now = this.clock.now();
    await this.refuseLocked(ctx, customer.id, now);
    let proven: boolean;
    if (request.factor === 'TOTP') {
      const totp = (await this.sca.activeFactors(ctx.platformId, customer.id)).find((row) => row.type === 'TOTP');
      if (!totp) throw ServiceError.invalidInput([{ field: 'factor', message: 'the customer has no TOTP factor enrolled' }]);
      if (!request.code) throw ServiceError.invalidInput([{ field: 'code', message: 'code is required for TOTP' }]);
      proven = await this.totpProofMatches(ctx, totp, request.code, now);
    } else {
      if (request.factor === 'SMS_OTP' && !request.challengeId) throw ServiceError.invalidInput([{ field: 'challengeId', message: 'challengeId is required for SMS_OTP' }]);
      const challenge =
        request.factor === 'SMS_OTP'
          ? await this.sca.challenge(ctx.platformId, customer.id, request.challengeId!)
          : await this.sca.latestPendingChallenge(ctx.platformId, customer.id, customer.id, ['LOGIN']);
      if (!challenge || challenge.purpose !== 'LOGIN' || challenge.factor !== request.factor || challenge.status !== 'PENDING' || challenge.expiresAt <= now) {
        throw invalidProof('The login challenge is unknown, used or expired: start the login again', 'CHALLENGE_EXPIRED');
      }
      proven = await this.proofMatches(ctx, challenge, challenge.bindingDigest, request);
      if (proven) await this.sca.settleChallenge(ctx.platformId, challenge.id, 'SATISFIED', now);
      else await this.sca.countWrongProof(ctx.platformId, challenge.id, SCA_MAX_ATTEMPTS);
    }
    if (!proven) {
      // A wrong proof is a failed login attempt: it counts towards the lock.
      const state = await this.recordFailure(ctx, customer.id, now);
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

  // ---- security events and the lock ----

  async recordEvent(ctx: CallerContext, request: RecordSecurityEventRequest): Promise<SecurityState> {
    const customer = await this.regulated(ctx, request.customerId);
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
    await this.refuseLocked(ctx, customer.id, now);
    return toSecurityState(request.eventType, await this.recordFailure(ctx, customer.id, now));
  }

  // ---- money movement challenges (payments) ----

  async issueChallenge(ctx: CallerContext, request: IssueScaChallengeRequest): Promise<ScaChallengeIssue> {
    const customer = await this.regulated(ctx, request.customerId);
    // A trusted beneficiary skips the per-payment ceremony of its payout.
    if (request.trustedPayeeCandidate !== undefined && (await this.sca.isTrusted(ctx.platformId, request.trustedPayeeCandidate))) return {};
    const active = await this.sca.activeFactors(ctx.platformId, customer.id);
    // TOTP cannot carry dynamic linking: a payment is authorized by SMS or passkey only.
    const availableFactors: ScaFactor[] = ['SMS_OTP', ...(active.some((row) => row.type === 'PASSKEY') ? (['PASSKEY'] as const) : [])];
    const preferred = request.preferredFactor;
    const factor: ScaFactor = preferred && availableFactors.includes(preferred) ? preferred : availableFactors.includes('PASSKEY') ? 'PASSKEY' : 'SMS_OTP';
    const challenge = await this.newChallenge(ctx, customer, {
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
    await this.regulated(ctx, request.customerId);
    await this.answerChallenge(ctx, request.customerId, request.challengeId, request.binding, request, true);
    return { ok: true };
  }

  async resendChallenge(ctx: CallerContext, request: ResendScaChallengeRequest): Promise<Empty> {
    const customer = await this.regulated(ctx, request.customerId);
    const now = this.clock.now();
    const challenge = await this.sca.challenge(ctx.platformId, customer.id, request.challengeId);
    if (!challenge || challenge.status !== 'PENDING' || challenge.expiresAt <= now)
      throw new ServiceError('CONFLICT', 'There is no pending challenge to re-send', { reason: 'NO_PENDING_CHALLENGE' });
    if (challenge.factor !== 'SMS_OTP') throw new ServiceError('CONFLICT', `A ${challenge.factor} challenge has no code to re-send`, { reason: 'FACTOR_NOT_RESENDABLE' });
    const waitMs = challenge.sentAt ? challenge.sentAt.getTime() + SCA_RESEND_INTERVAL_MS - now.getTime() : 0;
    if (waitMs > 0) throw rateLimited('The code was sent moments ago', waitMs);
    // The same challenge and expiry, a fresh code bound to the same payment.
    const code = this.codeFor(ctx);
    await this.sca.resent(ctx.platformId, challenge.id, this.keys.mac(codeMacInput(challenge.id, challenge.bindingDigest, code)), now);
    await this.deliver(ctx, customer, code);
    return { ok: true };
  }

  // ---- trusted beneficiaries ----

  async startTrust(ctx: CallerContext, request: StartBeneficiaryTrustRequest): Promise<BeneficiaryTrustStart> {
    const customer = await this.beneficiaryOwner(ctx, request.externalAccountId);
    const challenge = await this.newChallenge(ctx, customer, {
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
    const customer = await this.beneficiaryOwner(ctx, request.externalAccountId);
    const purpose = request.trusted ? 'BENEFICIARY_TRUST' : 'BENEFICIARY_UNTRUST';
    const challenge = request.challengeId
      ? await this.sca.challenge(ctx.platformId, customer.id, request.challengeId)
      : await this.sca.latestPendingChallenge(ctx.platformId, customer.id, request.externalAccountId, [purpose]);
    if (!challenge || challenge.purpose !== purpose || challenge.subjectId !== request.externalAccountId) {
      throw new ServiceError('CONFLICT', `No pending ${request.trusted ? 'trust' : 'untrust'} challenge for ${request.externalAccountId}: start it first`, {
        reason: 'NO_PENDING_CHALLENGE',
      });
    }
    await this.answerChallenge(ctx, customer.id, challenge.id, trustBinding(request.externalAccountId, request.trusted), request, false);
    await this.sca.setTrusted(ctx.platformId, request.externalAccountId, customer.id, request.trusted, this.clock.now());
    return { trusted: request.trusted };
  }

  async getTrust(ctx: CallerContext, request: BeneficiaryTrustQuery): Promise<BeneficiaryTrustConfirm> {
    return { trusted: await this.sca.isTrusted(ctx.platformId, request.externalAccountId) };
  }

  // ---- 2FA reset ----

  async startReset(ctx: CallerContext, request: StartTwoFactorResetRequest): Promise<TwoFactorResetStart> {
    const customer = await this.regulated(ctx, request.customerId);
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
    const customer = await this.regulated(ctx, request.customerId);
    return this.resetStatus(ctx, customer.id, await this.requireReset(ctx, customer.id, request.resetId));
  }

  async completeReset(ctx: CallerContext, request: CompleteTwoFactorResetRequest): Promise<Empty> {
    const customer = await this.regulated(ctx, request.customerId);
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
    const customer = await this.regulated(ctx, request.customerId);
    const reset = await this.requireReset(ctx, customer.id, request.resetId);
    const from: ScaResetRow['status'][] = request.outcome === 'PENDING_REVIEW' ? ['INITIATED'] : ['INITIATED', 'PENDING_REVIEW'];
    if (!(await this.sca.moveReset(ctx.platformId, reset.id, from, request.outcome, this.clock.now()))) {
      throw new ServiceError('CONFLICT', `The reset is ${resetStatusAt(reset, this.clock.now())}: its liveness cannot move to ${request.outcome}`);
    }
    return this.resetStatus(ctx, customer.id, (await this.sca.reset(ctx.platformId, customer.id, reset.id))!);
  }

  // ---- shared steps ----

  /** The customer, if SCA-regulated; 404 when unknown (the customers service's), 409 when not subject to SCA. */
  private async regulated(ctx: CallerContext, customerId: string): Promise<Customer> {
    const customer = await this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId }, ctx);
    if (!isScaRegulated(customer.address)) {
      throw new ServiceError('CONFLICT', `SCA is not required for customer ${customerId} (its address is outside the EEA)`, { reason: 'SCA_NOT_REQUIRED' });
    }
    return customer;
  }

  private async beneficiaryOwner(ctx: CallerContext, externalAccountId: string): Promise<Customer> {
    const account = await this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.getAccount, { externalAccountId }, ctx);
    if (!account.customerId) throw new ServiceError('CONFLICT', `External account ${externalAccountId} is the platform's: SCA is not required`, { reason: 'SCA_NOT_REQUIRED' });
    return this.regulated(ctx, account.customerId);
  }

  private async activate(ctx: CallerContext, pending: ScaFactorRow, changes: Parameters<ScaRepository['activateFactor']>[2], now: Date): Promise<void> {
    try {
      if (!(await this.sca.activateFactor(ctx.platformId, pending.id, changes, now))) throw new ServiceError('CONFLICT', 'This enrollment was confirmed already');
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw pending.type === 'PASSKEY'
          ? new ServiceError('PASSKEY_ALREADY_ENROLLED', 'The customer already has a passkey')
          : new ServiceError('CONFLICT', 'The customer already has an authenticator app enrolled', { reason: 'TOTP_ALREADY_ENROLLED' });
      }
      throw error;
    }
  }

  private async newChallenge(
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
  private async answerChallenge(ctx: CallerContext, customerId: string, challengeId: string, binding: ScaBinding, proof: ScaProofInput, needsSession: boolean): Promise<void> {
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
  private async proofMatches(ctx: CallerContext, challenge: ScaChallengeRow, bound: string, proof: ScaProofInput): Promise<boolean> {
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
  private async totpProofMatches(ctx: CallerContext, factor: ScaFactorRow, code: string, now: Date): Promise<boolean> {
    if (isSandboxCaller(this.config, ctx) && isSandboxScaCode(code)) return true;
    const step = totpMatchedStep(base32Decode(this.keys.open(factor.secretSealed!)), code, now);
    return step !== undefined && (await this.sca.claimTotpStep(ctx.platformId, factor.id, step));
  }

  private codeFor(ctx: CallerContext): string {
    return isSandboxCaller(this.config, ctx) ? SCA_SANDBOX_CODE : randomInt(0, 1_000_000).toString().padStart(6, '0');
  }

  private async deliver(ctx: CallerContext, customer: Customer, code: string): Promise<void> {
    // Sandbox callers use the fixed code: nothing is sent.
    if (isSandboxCaller(this.config, ctx) || !customer.phoneNumber) return;
    await this.otpSender.send('SMS', customer.phoneNumber, code);
  }

  private async refuseLocked(ctx: CallerContext, customerId: string, now: Date): Promise<void> {
    const state = await this.sca.lockState(ctx.platformId, customerId);
    if (isLocked(state, now)) throw accountLocked(state);
  }

  /** One more failed login attempt, under the row's lock; the fifth of each five escalates the lock. */
  private recordFailure(ctx: CallerContext, customerId: string, now: Date): Promise<LockState> {
    return this.transactions.run(async (manager) => {
      await this.sca.ensureLockRow(manager, ctx.platformId, customerId, now);
      const next = afterFailedAttempt(await this.sca.lockState(ctx.platformId, customerId, manager, true), now);
      await this.sca.saveLockState(manager, ctx.platformId, customerId, next, now);
      return next;
    });
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

/**
 * SMS_OTP rides on the customer's phone once verified: a phone the provider asks to verify
 * (contact verification) counts once VERIFIED, any other phone number as it is.
 */
function hasVerifiedPhone(customer: Customer): boolean {
  return Boolean(customer.phoneNumber) && customer.contactVerification?.phone !== 'PENDING';
}

/** A reset not finished when its window closes reads EXPIRED. */
function resetStatusAt(reset: ScaResetRow, now: Date): TwoFactorResetStatus['status'] {
  return reset.status !== 'COMPLETED' && reset.status !== 'REJECTED' && reset.expiresAt <= now ? 'EXPIRED' : reset.status;
}

/** Trust and untrust are bound to the account and the direction of the change. */
function trustBinding(externalAccountId: string, trusted: boolean): ScaBinding {
  return { amount: '0', currency: trusted ? 'TRUST' : 'UNTRUST', payee: externalAccountId };
}

function toSecurityState(eventType: SecurityState['eventType'], state: LockState): SecurityState {
  return {
    eventType,
    suspended: state.suspended,
    lockedUntil: state.suspended || !state.lockedUntil ? null : state.lockedUntil.toISOString(),
    failedAttempts: state.failedAttempts,
  };
}

function accountLocked(state: LockState): ServiceError {
  return new ServiceError(
    'ACCOUNT_LOCKED',
    state.suspended ? "The customer's login is suspended: a password reset (RESET_PASSWORD_COMPLETED) lifts it" : "The customer's login is locked",
    {
      suspended: state.suspended,
      lockedUntil: state.suspended || !state.lockedUntil ? null : state.lockedUntil.toISOString(),
      failedAttempts: state.failedAttempts,
    },
  );
}

function rateLimited(message: string, waitMs: number): ServiceError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ServiceError('RATE_LIMITED', message, { retryAfterSeconds: seconds }, { 'Retry-After': String(seconds) });
}
