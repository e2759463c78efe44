import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext, ConsumeSignedRetryRequest, IssueSignedRetryRequest, newId, SignedOperation, SignedRetryChallenge, SignedRetryProof } from '@paykit/contracts';
import { TransactionRunner, Clock } from '@paykit/persistence';
import { SignedRetryAuthority } from '@paykit/transport';
import { isSandboxCaller, WALLET_AUTH_CONFIG, WalletAuthConfig } from '../config/wallet-auth-config';
import { BoundedLruCache, compressP256PublicKeyHex } from '../crypto/p256';
import { parseWalletStamp, verifyWalletStamp, WalletStamp, WalletStampError } from '../crypto/wallet-stamp';
import { LEGACY_SANDBOX_WALLET_SIGNATURE, SIGNED_RETRY_FAILURE_REASONS, signedRetryErrors } from './signed-retry.errors';
import { SignedRetryChallengeRow, SignedRetryRepository } from './signed-retry.repository';

export interface IssueOptions {
  /** When set, only this key may sign (e.g. the client key an OTP verification revealed). */
  signerPublicKey?: string;
  /** Facts the retry needs (e.g. the credential an OTP verified); stored with the challenge. */
  context?: Record<string, unknown>;
  manager?: EntityManager;
}

export interface ConsumeOptions {
  /** Consume inside the caller's transaction, so the change and the consumption commit together. */
  manager?: EntityManager;
  /** Refuse a session of this credential (revoking a credential needs another one's session). */
  rejectSessionOfCredential?: string;
}

export interface ConsumedChallenge extends SignedRetryProof {
  signerPublicKey?: string;
  context: Record<string, unknown>;
}

/** What wallet-auth's own signed actions apply with: the consumed challenge and the transaction it was consumed in. */
export interface ConsumedInTransaction {
  manager: EntityManager;
  challenge: ConsumedChallenge;
}

/** A challenge as this process issued it. Its row never changes but for being consumed. */
type IssuedChallenge = Omit<SignedRetryChallengeRow, 'requestId' | 'expiresAt' | 'consumedAt'>;

// A retry usually follows its challenge within seconds, so the newest challenges are the ones kept.
const ISSUED_CHALLENGE_CACHE_CAPACITY = 10_000;

function compressedKey(publicKeyHex: string): string {
  // The stamper writes the compressed form; decoding it again would cost a square root per request.
  return publicKeyHex.length === 66 ? publicKeyHex.toLowerCase() : compressP256PublicKeyHex(publicKeyHex);
}

/**
 * The one signed-retry mechanism (docs/architecture.md, "Signed retry"): a challenge bound to
 * (account, operation, digest of the canonical request), answered by a stamp over `payloadToSign`
 * from an active session key of that account, consumed exactly once before its expiry.
 */
@Injectable()
export class SignedRetryService {
  private readonly logger = new Logger(SignedRetryService.name);
  /**
   * Challenges issued here, so that their retry can be verified before the database is asked and
   * consumed in one statement. Only an optimisation: a retry whose challenge is not here (issued by
   * another replica, evicted) or that fails any check takes the full path, which names the failure.
   */
  private readonly issued = new BoundedLruCache<string, IssuedChallenge>(ISSUED_CHALLENGE_CACHE_CAPACITY);

  constructor(
    private readonly dataSource: DataSource,
    private readonly challenges: SignedRetryRepository,
    private readonly transactions: TransactionRunner,
    @Inject(WALLET_AUTH_CONFIG) private readonly config: WalletAuthConfig,
    private readonly clock: Clock,
  ) {}

  async issue(ctx: CallerContext, request: IssueSignedRetryRequest, options: IssueOptions = {}): Promise<SignedRetryChallenge> {
    const requestId = newId('Request');
    const now = this.clock.now().getTime();
    // The owner may tie the challenge's life to its resource's (a quote's lock); otherwise the default time to live.
    const expiresAt = request.expiresAt !== undefined ? new Date(request.expiresAt) : new Date(now + this.config.signedRetryTtlSeconds * 1000);
    const signerPublicKey = options.signerPublicKey ? compressedKey(options.signerPublicKey) : null;
    // What the client signs names everything the challenge is bound to.
    const payloadToSign = JSON.stringify({
      type: 'SIGNED_REQUEST',
      requestId,
      operation: request.operation,
      accountId: request.accountId,
      requestDigest: request.requestDigest,
      ...(request.parameters ? { parameters: request.parameters } : {}),
      ...(signerPublicKey ? { publicKey: signerPublicKey } : {}),
      timestampMs: String(now),
      expiresAt: expiresAt.toISOString(),
    });
    const issued: IssuedChallenge = {
      platformId: ctx.platformId,
      accountId: request.accountId,
      operation: request.operation,
      requestDigest: request.requestDigest,
      payloadToSign,
      signerPublicKey,
      context: options.context ?? null,
    };
    await this.challenges.insert(options.manager ?? this.dataSource, { requestId, ...issued, expiresAt });
    this.issued.set(requestId, issued);
    return { payloadToSign, requestId, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Checks the retry in the spec's order (headers, request id, request binding, stamp shape, key,
   * signature) and consumes the challenge. Nothing is consumed when a check fails.
   */
  async consume(ctx: CallerContext, request: ConsumeSignedRetryRequest, options: ConsumeOptions = {}): Promise<ConsumedChallenge> {
    const { signature, requestId } = request;
    if (signature === undefined || signature === '') {
      throw requestId === undefined ? signedRetryErrors.requestIdMissing() : signedRetryErrors.signatureMissing();
    }
    if (requestId === undefined || requestId === '') throw signedRetryErrors.requestIdMissing();

    const legacy = signature === LEGACY_SANDBOX_WALLET_SIGNATURE && isSandboxCaller(this.config, ctx);
    let stamp: WalletStamp | undefined;
    let stampError: WalletStampError | undefined;
    if (!legacy) {
      try {
        stamp = parseWalletStamp(signature);
      } catch (error) {
        if (!(error instanceof WalletStampError)) throw error;
        stampError = error;
      }
    }
    const signerKey = stamp ? compressedKey(stamp.publicKeyHex) : null;
    const manager = options.manager ?? this.dataSource;
    if (stamp && signerKey) {
      const consumed = await this.consumeIssuedHere(ctx, { ...request, requestId }, stamp, signerKey, manager, options);
      if (consumed) return consumed;
    }
    const challenge = await this.challenges.findWithSigner(ctx.platformId, requestId, signerKey, manager);
    if (!challenge || challenge.accountId !== request.accountId) throw signedRetryErrors.requestIdUnknown();
    if (challenge.consumedAt) throw signedRetryErrors.requestIdUsed();
    if (new Date(challenge.expiresAt).getTime() <= new Date(challenge.now).getTime()) throw signedRetryErrors.expired();
    if (challenge.operation !== request.operation || challenge.requestDigest !== request.requestDigest) throw signedRetryErrors.bodyMismatch();

    let sessionId: string | null = null;
    if (legacy) {
      this.logger.warn(`Legacy sandbox wallet signature accepted (platform ${ctx.platformId}, request ${ctx.requestId}, operation ${challenge.operation})`);
    } else {
      if (!stamp) throw signedRetryErrors.malformed(stampError?.message ?? 'wallet signature is malformed');
      if (challenge.signerPublicKey) {
        if (signerKey !== challenge.signerPublicKey) throw signedRetryErrors.invalid(SIGNED_RETRY_FAILURE_REASONS.keyNotBound);
      } else {
        if (!challenge.sessionId) throw signedRetryErrors.invalid(SIGNED_RETRY_FAILURE_REASONS.keyNotSession);
        if (options.rejectSessionOfCredential && challenge.sessionCredentialId === options.rejectSessionOfCredential) {
          throw signedRetryErrors.invalid(SIGNED_RETRY_FAILURE_REASONS.sameCredential);
        }
        sessionId = challenge.sessionId;
      }
      // The stamp is trusted for the stored key only (the lookup above matched it), never for any key it names.
      if (!verifyWalletStamp(stamp, challenge.payloadToSign)) throw signedRetryErrors.invalid(SIGNED_RETRY_FAILURE_REASONS.signatureInvalid);
    }

    if (!(await this.challenges.markConsumed(manager, ctx.platformId, requestId, sessionId))) throw signedRetryErrors.requestIdUsed();
    return {
      requestId,
      accountId: challenge.accountId,
      operation: challenge.operation,
      ...(sessionId ? { sessionId, authMethodId: challenge.sessionCredentialId ?? undefined } : {}),
      ...(challenge.signerPublicKey ? { signerPublicKey: challenge.signerPublicKey } : {}),
      legacy,
      context: challenge.context ?? {},
    };
  }

  /**
   * The common case in one statement: the challenge was issued by this process, so the stamp is
   * verified against its payloadToSign first and a single conditional UPDATE then checks everything
   * else and consumes. Undefined when anything does not hold; nothing is consumed then.
   */
  private async consumeIssuedHere(
    ctx: CallerContext,
    request: ConsumeSignedRetryRequest & { requestId: string },
    stamp: WalletStamp,
    signerKey: string,
    manager: EntityManager | DataSource,
    options: ConsumeOptions,
  ): Promise<ConsumedChallenge | undefined> {
    const issued = this.issued.get(request.requestId);
    if (
      !issued ||
      issued.platformId !== ctx.platformId ||
      issued.accountId !== request.accountId ||
      issued.operation !== request.operation ||
      issued.requestDigest !== request.requestDigest ||
      (issued.signerPublicKey !== null && issued.signerPublicKey !== signerKey) ||
      !verifyWalletStamp(stamp, issued.payloadToSign)
    ) {
      return undefined;
    }
    const consumed = await this.challenges.consumeVerified(
      manager,
      {
        platformId: ctx.platformId,
        requestId: request.requestId,
        accountId: issued.accountId,
        operation: issued.operation,
        requestDigest: issued.requestDigest,
        signerPublicKey: signerKey,
      },
      issued.signerPublicKey !== null ? { boundKey: true } : { boundKey: false, rejectSessionOfCredential: options.rejectSessionOfCredential },
    );
    if (!consumed) return undefined;
    this.issued.delete(request.requestId);
    const { sessionId, sessionCredentialId } = consumed;
    return {
      requestId: request.requestId,
      accountId: issued.accountId,
      operation: issued.operation,
      ...(sessionId ? { sessionId, authMethodId: sessionCredentialId ?? undefined } : {}),
      ...(issued.signerPublicKey ? { signerPublicKey: issued.signerPublicKey } : {}),
      legacy: false,
      context: issued.context ?? {},
    };
  }

  /** The operation `requestId` was issued for on this platform, if it was. */
  operationOf(ctx: CallerContext, requestId: string): Promise<SignedOperation | undefined> {
    return this.challenges.operationOf(ctx.platformId, requestId);
  }

  /**
   * This service as the authority of the shared signed-action step, for wallet-auth's own signed
   * actions: the consumption and the change commit in one transaction, so a failed change leaves
   * the challenge unconsumed.
   */
  inProcess(options: Omit<ConsumeOptions, 'manager'> = {}): SignedRetryAuthority<ConsumedInTransaction> {
    return {
      issue: (ctx, binding) => this.issue(ctx, binding),
      consumeAndApply: (ctx, retry, apply) => this.transactions.run(async (manager) => apply({ manager, challenge: await this.consume(ctx, retry, { ...options, manager }) })),
    };
  }
}
