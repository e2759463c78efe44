import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthSession, CallerContext, Empty, newId, RefreshSessionRequest, SessionIdRequest, SignedRetryOutcome, WALLET_AUTH_EVENTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Outbox, Clock } from '@paykit/persistence';
import { signedAction } from '@paykit/transport';
import { WALLET_AUTH_CONFIG, WalletAuthConfig } from '../config/wallet-auth-config';
import { toAuthSession } from '../credentials/credential.mapper';
import { CredentialsRepository } from '../credentials/credentials.repository';
import { AuthCredentialEntity } from '../credentials/entities/auth-credential.entity';
import { compressP256PublicKeyHex, generateP256KeyPair } from '../crypto/p256';
import { sealSessionSigningKey } from '../crypto/session-bundle';
import { SignedRetryService } from '../signed-retry/signed-retry.service';
import { AuthSessionEntity } from './entities/auth-session.entity';
import { SessionsRepository } from './sessions.repository';

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly credentials: CredentialsRepository,
    private readonly signedRetry: SignedRetryService,
    private readonly outbox: Outbox,
    @Inject(WALLET_AUTH_CONFIG) private readonly config: WalletAuthConfig,
    private readonly clock: Clock,
  ) {}

  /** Starts a session whose key the client holds (OTP: the key the OTP bundle revealed). */
  async open(manager: EntityManager, credential: AuthCredentialEntity, publicKeyHex: string): Promise<AuthSession> {
    const now = this.clock.now();
    const session: AuthSessionEntity = {
      id: newId('Session'),
      platformId: credential.platformId,
      accountId: credential.accountId,
      credentialId: credential.id,
      publicKey: compressP256PublicKeyHex(publicKeyHex),
      expiresAt: new Date(now.getTime() + this.config.sessionTtlSeconds * 1000),
      revokedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.sessions.insert(manager, session);
    const resource = toAuthSession(session, credential);
    await this.outbox.add(manager, { subject: WALLET_AUTH_EVENTS.sessionCreated, platformId: session.platformId, resourceId: session.id, data: resource });
    return resource;
  }

  /**
   * A session for the key a client sent (PASSKEY, OAUTH, refresh). A compressed key is the
   * client-held-key model: the client's own key pair is the session key and nothing is returned.
   * An uncompressed key is the older sealed model: the service generates the session key and
   * seals it to the client's key.
   */
  async openForClientKey(manager: EntityManager, credential: AuthCredentialEntity, clientPublicKeyHex: string): Promise<AuthSession> {
    return clientPublicKeyHex.length === 66 ? this.open(manager, credential, clientPublicKeyHex) : this.openSealed(manager, credential, clientPublicKeyHex);
  }

  /** Starts a session whose key the service generates and seals to the client's key. The private key exists in clear only in this call. */
  private async openSealed(manager: EntityManager, credential: AuthCredentialEntity, clientPublicKeyHex: string): Promise<AuthSession> {
    const sessionKey = generateP256KeyPair();
    const encryptedSessionSigningKey = sealSessionSigningKey(sessionKey.privateKeyHex, clientPublicKeyHex);
    const session = await this.open(manager, credential, sessionKey.publicKeyCompressedHex);
    return { ...session, encryptedSessionSigningKey };
  }

  async list(ctx: CallerContext, accountId: string): Promise<{ data: AuthSession[] }> {
    const [sessions, credentials] = await Promise.all([this.sessions.listActive(ctx.platformId, accountId), this.credentials.listActive(ctx.platformId, accountId)]);
    const byId = new Map(credentials.map((credential) => [credential.id, credential]));
    return {
      data: sessions.flatMap((session) => {
        const credential = byId.get(session.credentialId);
        return credential ? [toAuthSession(session, credential)] : [];
      }),
    };
  }

  async revoke(ctx: CallerContext, request: SessionIdRequest): Promise<SignedRetryOutcome<Empty>> {
    const session = await this.requireActive(ctx, request.sessionId);
    const credential = await this.credentials.findActive(ctx.platformId, session.credentialId);
    const action = { accountId: session.accountId, operation: 'SESSION_REVOKE' as const, input: request.signedRetry, challengeType: credential?.type };
    return signedAction(this.signedRetry.inProcess(), ctx, action, async ({ manager }) => {
      if (!(await this.sessions.revoke(manager, ctx.platformId, session.id))) throw notFound(session.id);
      await this.outbox.add(manager, { subject: WALLET_AUTH_EVENTS.sessionRevoked, platformId: ctx.platformId, resourceId: session.id, data: { sessionId: session.id } });
      return { ok: true as const };
    });
  }

  /** A fresh session key for the same credential (the client's, or one sealed to it); the refreshed session ends. */
  async refresh(ctx: CallerContext, request: RefreshSessionRequest): Promise<SignedRetryOutcome<AuthSession>> {
    const session = await this.requireActive(ctx, request.sessionId);
    return signedAction(this.signedRetry.inProcess(), ctx, { accountId: session.accountId, operation: 'SESSION_REFRESH', input: request.signedRetry }, async ({ manager }) => {
      const credential = await this.credentials.findActive(ctx.platformId, session.credentialId, manager);
      if (!credential || !(await this.sessions.revoke(manager, ctx.platformId, session.id))) throw notFound(session.id);
      await this.outbox.add(manager, { subject: WALLET_AUTH_EVENTS.sessionRevoked, platformId: ctx.platformId, resourceId: session.id, data: { sessionId: session.id } });
      return this.openForClientKey(manager, credential, request.clientPublicKey);
    });
  }

  private async requireActive(ctx: CallerContext, sessionId: string): Promise<AuthSessionEntity> {
    const session = await this.sessions.findActive(ctx.platformId, sessionId);
    if (!session) throw notFound(sessionId);
    return session;
  }
}

function notFound(sessionId: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Session ${sessionId} not found`);
}
