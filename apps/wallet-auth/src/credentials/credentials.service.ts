import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  AuthMethod,
  AuthSession,
  CallerContext,
  ChallengeCredentialRequest,
  CreateCredentialRequest,
  CredentialChallengeResponse,
  Empty,
  newId,
  RevokeCredentialRequest,
  SignedRetryOutcome,
  VerifyCredentialRequest,
  WALLET_AUTH_EVENTS,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { isUniqueViolation, Outbox, TransactionRunner, Clock } from '@paykit/persistence';
import { signedAction, signedRetryStep } from '@paykit/transport';
import { WalletAccountsRepository } from '../accounts/wallet-accounts.repository';
import { emptyCredential, WalletAccountsService } from '../accounts/wallet-accounts.service';
import { WalletAccountEntity } from '../accounts/entities/wallet-account.entity';
import { isSandboxCaller, WALLET_AUTH_CONFIG, WalletAuthConfig } from '../config/wallet-auth-config';
import { OidcTokenVerifier, VerifiedOidcToken } from '../crypto/oidc-token';
import { createOtpEncryptionTarget, decryptOtpBundle, DecryptedOtpBundle } from '../crypto/otp-bundle';
import { isValidP256PublicKeyHex } from '../crypto/p256';
import { verifyPasskeyAssertion, verifyPasskeyRegistration, WebAuthnRelyingParty } from '../crypto/webauthn';
import { EnclaveKeysService } from '../keys/enclave-keys.service';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SessionsService } from '../sessions/sessions.service';
import { SignedRetryService } from '../signed-retry/signed-retry.service';
import { ChallengesRepository } from './challenges.repository';
import { toAuthMethod } from './credential.mapper';
import { CREDENTIAL_FAILURE_REASONS, credentialNotFound, fromOidcError, fromOtpBundleError, fromWebAuthnError, LEGACY_SANDBOX_PASSKEY_SIGNATURE } from './credentials.errors';
import { CredentialsRepository } from './credentials.repository';
import { AuthCredentialEntity } from './entities/auth-credential.entity';
import { OTP_SENDER, OtpSender } from './otp-sender';

/** The sandbox's OTP code: real HPKE is still performed, delivery is skipped. */
export const SANDBOX_OTP_CODE = '000000';

const UNIQUE_INDEX_ERRORS: Record<string, ServiceError> = {
  ux_auth_credential_email_otp: new ServiceError('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS', 'The account already has an EMAIL_OTP credential'),
  ux_auth_credential_sms_otp: new ServiceError('SMS_OTP_CREDENTIAL_ALREADY_EXISTS', 'The account already has an SMS_OTP credential'),
  ux_auth_credential_passkey: new ServiceError('PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'This WebAuthn credentialId is already registered on the account'),
  ux_auth_credential_oauth: new ServiceError('OAUTH_CREDENTIAL_ALREADY_EXISTS', 'This OIDC identity (iss, sub) is already registered on the account'),
};

function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

@Injectable()
export class CredentialsService {
  private readonly logger = new Logger(CredentialsService.name);
  private readonly relyingParty: WebAuthnRelyingParty;
  private readonly sandboxOidc: OidcTokenVerifier;
  private readonly strictOidc: OidcTokenVerifier;

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly challenges: ChallengesRepository,
    private readonly sessionsRepository: SessionsRepository,
    private readonly accounts: WalletAccountsService,
    private readonly walletAccounts: WalletAccountsRepository,
    private readonly sessions: SessionsService,
    private readonly signedRetry: SignedRetryService,
    private readonly keys: EnclaveKeysService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    @Inject(WALLET_AUTH_CONFIG) private readonly config: WalletAuthConfig,
    @Inject(OTP_SENDER) private readonly otpSender: OtpSender,
    private readonly clock: Clock,
  ) {
    this.relyingParty = { rpId: config.rpId, allowedOrigins: config.allowedOrigins };
    this.sandboxOidc = new OidcTokenVerifier({ supportedIssuers: config.oidcIssuers, sandbox: true });
    this.strictOidc = new OidcTokenVerifier({ supportedIssuers: config.oidcIssuers.filter((issuer) => issuer.jwksUri), sandbox: false });
  }

  // ---- POST /auth/credentials ----

  /** The first credential of an account is created at once; any further one needs a signed retry. */
  async create(ctx: CallerContext, request: CreateCredentialRequest): Promise<SignedRetryOutcome<AuthMethod>> {
    const account = await this.accounts.require(ctx, request.accountId);
    const draft = await this.draftCredential(ctx, account, request);
    const existing = await this.credentials.listActive(ctx.platformId, account.id);
    const step = signedRetryStep(request.signedRetry);
    // First call: a doomed request fails before any challenge. Retry: the request id is checked
    // first (a reused one is 401 whatever else changed); the unique indexes guard the insert.
    if (step === 'first-call') this.refuseDuplicate(draft, existing);

    if (existing.length === 0 && step === 'first-call') {
      const created = await this.transactions.run(async (manager) => {
        // The account row lock orders concurrent first credentials: only one can be "the first".
        await this.walletAccounts.lock(manager, ctx.platformId, account.id);
        if ((await this.credentials.countActive(ctx.platformId, account.id, manager)) > 0) {
          throw new ServiceError('CONFLICT', 'A credential was added to this account concurrently; this one now needs a signed retry');
        }
        return this.insertCredential(manager, ctx, draft, request.oidcToken);
      });
      return { result: created };
    }
    const action = { accountId: account.id, operation: 'CREDENTIAL_ADD' as const, input: request.signedRetry, challengeType: draft.type };
    const outcome = await signedAction(this.signedRetry.inProcess(), ctx, action, ({ manager }) => this.insertCredential(manager, ctx, draft, request.oidcToken));
    if (!('result' in outcome) || (draft.type !== 'EMAIL_OTP' && draft.type !== 'SMS_OTP')) return outcome;
    // An OTP credential added by signed retry gets its first code at once: the answer carries the
    // target bundle to encrypt it to (verify activates the credential).
    return { result: await this.issueOtp(ctx, draft) };
  }

  async list(ctx: CallerContext, accountId: string): Promise<{ data: AuthMethod[] }> {
    const credentials = await this.credentials.listActive(ctx.platformId, accountId);
    return { data: credentials.map(toAuthMethod) };
  }

  private async draftCredential(ctx: CallerContext, account: WalletAccountEntity, request: CreateCredentialRequest): Promise<AuthCredentialEntity> {
    const now = this.clock.now();
    const base = { ...emptyCredential(), id: newId('AuthMethod'), platformId: ctx.platformId, accountId: account.id, type: request.type, createdAt: now, updatedAt: now };
    refuseFieldsOfOtherTypes(request);
    switch (request.type) {
      case 'EMAIL_OTP': {
        const email = request.email?.toLowerCase() ?? account.walletEmail;
        if (!email) throw ServiceError.invalidField('email', 'email is required: the account has no customer email', { format: 'email' });
        // Bound to the customer email: a later change of that email is a signed action that syncs here.
        const tied = account.customerId !== null && email === account.walletEmail;
        return { ...base, nickname: email, email, tiedCustomerId: tied ? account.customerId : null };
      }
      case 'SMS_OTP': {
        const phoneNumber = request.phoneNumber!;
        return { ...base, nickname: phoneNumber, phoneNumber };
      }
      case 'PASSKEY': {
        const attestation = request.attestation!;
        const registration = await verifyPasskeyRegistration({
          attestation: {
            id: attestation.credentialId,
            rawId: attestation.credentialId,
            type: 'public-key',
            clientExtensionResults: {},
            response: { clientDataJSON: attestation.clientDataJson, attestationObject: attestation.attestationObject, transports: attestation.transports ?? [] },
          },
          expectedChallenge: request.challenge!,
          relyingParty: this.relyingParty,
        }).catch((error: unknown) => {
          throw fromWebAuthnError(error, 'attestation');
        });
        return {
          ...base,
          nickname: request.nickname ?? 'Passkey',
          passkeyCredentialId: registration.credentialId,
          passkeyPublicKey: Buffer.from(registration.publicKey),
          passkeyCounter: String(registration.counter),
          passkeyTransports: attestation.transports ?? null,
        };
      }
      case 'OAUTH': {
        const token = await this.oidcVerifier(ctx)
          .checkRegistrationToken(request.oidcToken!)
          .catch((error: unknown) => {
            throw fromOidcError(error);
          });
        if (await this.challenges.isOidcTokenUsed(tokenDigest(request.oidcToken!))) throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.oidcTokenReplayed);
        return { ...base, nickname: token.email ?? token.subject, oidcIssuer: token.issuer, oidcAudience: token.audience, oidcSubject: token.subject };
      }
    }
  }

  /** The spec's limits, checked before any challenge so a doomed request fails on its first call. */
  private refuseDuplicate(draft: AuthCredentialEntity, existing: AuthCredentialEntity[]): void {
    const clash = existing.find(
      (other) =>
        other.type === draft.type &&
        (draft.type === 'EMAIL_OTP' ||
          draft.type === 'SMS_OTP' ||
          (draft.type === 'PASSKEY' && other.passkeyCredentialId === draft.passkeyCredentialId) ||
          (draft.type === 'OAUTH' && other.oidcIssuer === draft.oidcIssuer && other.oidcSubject === draft.oidcSubject)),
    );
    if (!clash) return;
    const index = { EMAIL_OTP: 'ux_auth_credential_email_otp', SMS_OTP: 'ux_auth_credential_sms_otp', PASSKEY: 'ux_auth_credential_passkey', OAUTH: 'ux_auth_credential_oauth' }[
      draft.type
    ];
    throw UNIQUE_INDEX_ERRORS[index];
  }

  private async insertCredential(manager: EntityManager, ctx: CallerContext, draft: AuthCredentialEntity, oidcToken: string | undefined): Promise<AuthMethod> {
    if (draft.type === 'OAUTH' && oidcToken) await this.recordOidcToken(manager, ctx, oidcToken);
    try {
      await this.credentials.insert(manager, draft);
    } catch (error) {
      const known = Object.keys(UNIQUE_INDEX_ERRORS).find((index) => isUniqueViolation(error, index));
      if (known) throw UNIQUE_INDEX_ERRORS[known];
      throw error;
    }
    const method = toAuthMethod(draft);
    await this.outbox.add(manager, { subject: WALLET_AUTH_EVENTS.credentialCreated, platformId: ctx.platformId, resourceId: draft.id, data: method });
    return method;
  }

  // ---- DELETE /auth/credentials/{id} ----

  /** Needs a session of another credential; the credential's sessions end with it; never the last one. */
  async revoke(ctx: CallerContext, request: RevokeCredentialRequest): Promise<SignedRetryOutcome<Empty>> {
    const credential = await this.requireActive(ctx, request.authMethodId);
    if ((await this.credentials.countActive(ctx.platformId, credential.accountId)) <= 1) throw lastCredential();
    return signedAction(
      this.signedRetry.inProcess({ rejectSessionOfCredential: credential.id }),
      ctx,
      { accountId: credential.accountId, operation: 'CREDENTIAL_REVOKE', input: request.signedRetry, challengeType: credential.type },
      async ({ manager }) => {
        // Under the account lock, two revocations cannot both see "another credential remains".
        await this.walletAccounts.lock(manager, ctx.platformId, credential.accountId);
        if ((await this.credentials.countActive(ctx.platformId, credential.accountId, manager)) <= 1) throw lastCredential();
        if (!(await this.credentials.revoke(manager, ctx.platformId, credential.id))) throw credentialNotFound(credential.id);
        const sessionIds = await this.sessionsRepository.revokeAllOfCredential(manager, ctx.platformId, credential.id);
        await this.outbox.add(manager, {
          subject: WALLET_AUTH_EVENTS.credentialRevoked,
          platformId: ctx.platformId,
          resourceId: credential.id,
          data: { ...toAuthMethod(credential), revokedSessionIds: sessionIds },
        });
        return { ok: true as const };
      },
    );
  }

  // ---- POST /auth/credentials/{id}/challenge ----

  async challenge(ctx: CallerContext, request: ChallengeCredentialRequest): Promise<CredentialChallengeResponse> {
    const credential = await this.requireActive(ctx, request.authMethodId);
    switch (credential.type) {
      case 'EMAIL_OTP':
      case 'SMS_OTP':
        if (request.clientPublicKey !== undefined) throw ServiceError.invalidField('clientPublicKey', 'clientPublicKey is only accepted for PASSKEY credentials');
        return this.issueOtp(ctx, credential);
      case 'PASSKEY':
        return this.issuePasskeyChallenge(ctx, credential, request.clientPublicKey);
      case 'OAUTH':
        throw ServiceError.invalidInput(
          [{ field: 'authMethodId', message: 'OAUTH credentials have no challenge: call verify with a fresh oidcToken and clientPublicKey' }],
          'OAUTH credentials have no challenge',
        );
    }
  }

  private async issueOtp(ctx: CallerContext, credential: AuthCredentialEntity): Promise<CredentialChallengeResponse> {
    const sandbox = isSandboxCaller(this.config, ctx);
    const code = sandbox ? SANDBOX_OTP_CODE : String(randomInt(0, 1_000_000)).padStart(6, '0');
    const target = createOtpEncryptionTarget(this.keys.signer);
    const id = newId('OtpChallenge');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.otpTtlSeconds * 1000);
    await this.transactions.run(async (manager) => {
      // The credential row lock makes "too soon after the last challenge" exact under concurrency.
      await this.credentials.lock(manager, ctx.platformId, credential.id);
      const latest = await this.challenges.latestOtpChallenge(ctx.platformId, credential.id, manager);
      if (latest) {
        const waitMs = new Date(latest.createdAt).getTime() + this.config.otpResendSeconds * 1000 - now.getTime();
        if (waitMs > 0) {
          const retryAfter = Math.ceil(waitMs / 1000);
          throw new ServiceError('RATE_LIMITED', `A new code can be requested in ${retryAfter} s`, { retryAfterSeconds: retryAfter }, { 'Retry-After': String(retryAfter) });
        }
      }
      await this.challenges.insertOtpChallenge(manager, ctx.platformId, {
        id,
        credentialId: credential.id,
        // Kept sealed at rest; forgotten once the code is verified.
        targetKeySealed: this.keys.seal(target.targetPrivateKeyHex),
        codeDigest: this.keys.mac(`${id}:${code}`),
        maxAttempts: this.config.otpMaxAttempts,
        expiresAt,
        createdAt: now,
      });
    });
    if (!sandbox) {
      const channel = credential.type === 'SMS_OTP' ? 'SMS' : 'EMAIL';
      await this.otpSender.send(channel, (channel === 'SMS' ? credential.phoneNumber : credential.email) ?? credential.nickname, code);
    }
    return { ...toAuthMethod(credential), otpEncryptionTargetBundle: target.otpEncryptionTargetBundle };
  }

  private async issuePasskeyChallenge(ctx: CallerContext, credential: AuthCredentialEntity, clientPublicKey: string | undefined): Promise<CredentialChallengeResponse> {
    if (clientPublicKey === undefined) throw ServiceError.invalidField('clientPublicKey', 'clientPublicKey is required for PASSKEY credentials');
    if (!isValidP256PublicKeyHex(clientPublicKey)) throw ServiceError.invalidField('clientPublicKey', 'clientPublicKey is not a point on the P-256 curve');
    const requestId = newId('Request');
    const expiresAt = new Date(this.clock.now().getTime() + this.config.passkeyChallengeTtlSeconds * 1000);
    // The challenge is the digest of the session-creation request it authorizes (a fresh nonce
    // keeps two challenges for the same key apart); the client signs its UTF-8 text.
    const sessionRequest = { type: 'SESSION_CREATE', credentialId: credential.id, clientPublicKey, requestId, nonce: randomBytes(16).toString('hex') };
    const challenge = createHash('sha256').update(JSON.stringify(sessionRequest), 'utf8').digest('hex');
    await this.challenges.insertPasskeyChallenge(ctx.platformId, {
      requestId,
      credentialId: credential.id,
      challenge,
      clientPublicKey,
      expiresAt,
    });
    return { ...toAuthMethod(credential), credentialId: credential.passkeyCredentialId!, challenge, requestId, expiresAt: expiresAt.toISOString() };
  }

  // ---- POST /auth/credentials/{id}/verify ----

  async verify(ctx: CallerContext, request: VerifyCredentialRequest): Promise<SignedRetryOutcome<AuthSession>> {
    const credential = await this.requireActive(ctx, request.authMethodId);
    if (request.type !== credential.type) throw ServiceError.invalidField('type', `type must be ${credential.type} for this credential`, { enum: [credential.type] });
    refuseVerifyFieldsOfOtherTypes(request);
    switch (credential.type) {
      case 'EMAIL_OTP':
      case 'SMS_OTP':
        return this.verifyOtp(ctx, credential, request);
      case 'PASSKEY':
        return { result: await this.verifyPasskey(ctx, credential, request) };
      case 'OAUTH':
        return { result: await this.verifyOauth(ctx, credential, request) };
    }
  }

  /**
   * First call: opens the OTP bundle with the challenge's key, checks the code, and answers a
   * challenge only the revealed client key can sign. Retry: that signature opens the session.
   * Not a signed action of the account (no session signs it), so not the shared signedAction
   * step: its challenge is issued in the transaction that spends the code, bound to the revealed
   * key; its retry is consumed the one way every signed retry is.
   */
  private async verifyOtp(ctx: CallerContext, credential: AuthCredentialEntity, request: VerifyCredentialRequest): Promise<SignedRetryOutcome<AuthSession>> {
    const binding = { accountId: credential.accountId, operation: 'OTP_VERIFY' as const, requestDigest: request.signedRetry.requestDigest };
    if (signedRetryStep(request.signedRetry) === 'retry') {
      const { signature, requestId } = request.signedRetry;
      const session = await this.signedRetry.inProcess().consumeAndApply(ctx, { ...binding, signature, requestId }, ({ manager, challenge }) => {
        if (challenge.context.authMethodId !== credential.id || !challenge.signerPublicKey)
          throw ServiceError.unauthorized('Request-Id was issued for another credential', 'WALLET_SIGNATURE_BODY_MISMATCH');
        return this.sessions.open(manager, credential, challenge.signerPublicKey);
      });
      return { result: session };
    }

    const pending = await this.challenges.latestOtpChallenge(ctx.platformId, credential.id);
    if (!pending || pending.verifiedAt || !pending.targetKeySealed) throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.noPendingOtp);
    if (new Date(pending.expiresAt).getTime() <= this.clock.now().getTime()) throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.otpExpired);
    // Every attempt counts, decryptable or not, so the number of guesses stays bounded.
    if (!(await this.challenges.countOtpAttempt(ctx.platformId, pending.id))) throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.otpAttemptsExhausted);
    let opened: DecryptedOtpBundle;
    try {
      opened = decryptOtpBundle(request.encryptedOtpBundle!, this.keys.open(pending.targetKeySealed));
    } catch (error) {
      throw fromOtpBundleError(error);
    }
    if (!this.keys.macMatches(`${pending.id}:${opened.otpCode}`, pending.codeDigest)) throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.invalidOtpCode);
    const challenge = await this.transactions.run(async (manager) => {
      if (!(await this.challenges.markOtpVerified(manager, ctx.platformId, pending.id))) throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.noPendingOtp);
      return this.signedRetry.issue(ctx, binding, { signerPublicKey: opened.clientPublicKeyHex, context: { authMethodId: credential.id }, manager });
    });
    return { challenge: { ...challenge, type: credential.type } };
  }

  private async verifyPasskey(ctx: CallerContext, credential: AuthCredentialEntity, request: VerifyCredentialRequest): Promise<AuthSession> {
    const requestId = request.signedRetry.requestId;
    if (requestId === undefined || requestId === '') throw ServiceError.unauthorized('Request-Id header is required to verify a passkey', 'REQUEST_ID_MISSING');
    const pending = await this.challenges.findPasskeyChallenge(ctx.platformId, requestId);
    if (!pending || pending.credentialId !== credential.id) throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.passkeyRequestIdUnknown);
    if (pending.consumedAt) throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.passkeyRequestIdUsed);
    if (new Date(pending.expiresAt).getTime() <= this.clock.now().getTime()) throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.passkeyChallengeExpired);

    const assertion = request.assertion!;
    const legacy = assertion.signature === LEGACY_SANDBOX_PASSKEY_SIGNATURE && isSandboxCaller(this.config, ctx);
    let newCounter: number | undefined;
    if (legacy) {
      this.logger.warn(`Legacy sandbox passkey assertion accepted without WebAuthn checks (platform ${ctx.platformId}, credential ${credential.id})`);
    } else {
      const verified = await verifyPasskeyAssertion({
        assertion,
        expectedChallenge: pending.challenge,
        relyingParty: this.relyingParty,
        credential: { credentialId: credential.passkeyCredentialId!, publicKey: credential.passkeyPublicKey!, counter: Number(credential.passkeyCounter) },
      }).catch((error: unknown) => {
        throw fromWebAuthnError(error, 'assertion');
      });
      newCounter = verified.newCounter;
    }
    return this.transactions.run(async (manager) => {
      if (!(await this.challenges.consumePasskeyChallenge(manager, ctx.platformId, requestId))) throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.passkeyRequestIdUsed);
      // Compare-and-set: a concurrent assertion with the same counter loses here.
      if (newCounter !== undefined && !(await this.credentials.advancePasskeyCounter(manager, ctx.platformId, credential.id, credential.passkeyCounter!, newCounter))) {
        throw ServiceError.unauthorized('passkey signature counter did not increase');
      }
      return this.sessions.openForClientKey(manager, credential, pending.clientPublicKey);
    });
  }

  private async verifyOauth(ctx: CallerContext, credential: AuthCredentialEntity, request: VerifyCredentialRequest): Promise<AuthSession> {
    const identity = { issuer: credential.oidcIssuer!, audience: credential.oidcAudience!, subject: credential.oidcSubject! };
    const token: VerifiedOidcToken = await this.oidcVerifier(ctx)
      .checkVerificationToken(request.oidcToken!, request.clientPublicKey!, identity)
      .catch((error: unknown) => {
        throw fromOidcError(error);
      });
    return this.transactions.run(async (manager) => {
      await this.recordOidcToken(manager, ctx, request.oidcToken!, token.expiresAt);
      return this.sessions.openForClientKey(manager, credential, request.clientPublicKey!);
    });
  }

  // ---- helpers ----

  private oidcVerifier(ctx: CallerContext): OidcTokenVerifier {
    return isSandboxCaller(this.config, ctx) ? this.sandboxOidc : this.strictOidc;
  }

  /** A token opens one credential or session only: a replay is refused. */
  private async recordOidcToken(manager: EntityManager, ctx: CallerContext, token: string, expiresAtSeconds?: number): Promise<void> {
    const expiresAt = new Date((expiresAtSeconds ?? this.clock.now().getTime() / 1000 + 3600) * 1000);
    if (!(await this.challenges.recordOidcToken(manager, ctx.platformId, tokenDigest(token), expiresAt))) {
      throw ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.oidcTokenReplayed);
    }
  }

  private async requireActive(ctx: CallerContext, id: string): Promise<AuthCredentialEntity> {
    const credential = await this.credentials.findActive(ctx.platformId, id);
    if (!credential) throw credentialNotFound(id);
    return credential;
  }
}

/** The reference names no code of its own for this 400: INVALID_INPUT, with the reason in details. */
function lastCredential(): ServiceError {
  return new ServiceError('INVALID_INPUT', 'The only remaining credential of an account cannot be revoked', { reason: 'LAST_CREDENTIAL' });
}

/** The names of the fields a request carries a value for. */
function sentFields(request: object): Set<string> {
  return new Set(Object.entries(request).flatMap(([field, value]) => (value === undefined ? [] : [field])));
}

const CREATE_FIELDS_BY_TYPE = {
  EMAIL_OTP: ['email'],
  SMS_OTP: ['phoneNumber'],
  PASSKEY: ['nickname', 'challenge', 'attestation'],
  OAUTH: ['oidcToken'],
} as const;

function refuseFieldsOfOtherTypes(request: CreateCredentialRequest): void {
  const allowed: readonly string[] = CREATE_FIELDS_BY_TYPE[request.type];
  const foreign = Object.values(CREATE_FIELDS_BY_TYPE)
    .flat()
    .filter((field) => !allowed.includes(field) && sentFields(request).has(field));
  if (foreign.length > 0) {
    throw ServiceError.invalidInput(foreign.map((field) => ({ field, message: `${field} is not accepted for type ${request.type}` })));
  }
}

const VERIFY_FIELDS_BY_TYPE = {
  EMAIL_OTP: ['encryptedOtpBundle'],
  SMS_OTP: ['encryptedOtpBundle'],
  PASSKEY: ['assertion'],
  OAUTH: ['oidcToken', 'clientPublicKey'],
} as const;

function refuseVerifyFieldsOfOtherTypes(request: VerifyCredentialRequest): void {
  const allowed: readonly string[] = VERIFY_FIELDS_BY_TYPE[request.type];
  const all = ['encryptedOtpBundle', 'assertion', 'oidcToken', 'clientPublicKey'];
  const foreign = all.filter((field) => !allowed.includes(field) && sentFields(request).has(field));
  if (foreign.length > 0) {
    throw ServiceError.invalidInput(foreign.map((field) => ({ field, message: `${field} is not accepted for type ${request.type}` })));
  }
}
