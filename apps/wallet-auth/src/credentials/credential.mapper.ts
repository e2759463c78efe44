import { AuthMethod, AuthSession } from '@paykit/contracts';
import { AuthSessionEntity } from '../sessions/entities/auth-session.entity';
import { AuthCredentialEntity } from './entities/auth-credential.entity';

/** The AuthMethod resource exactly as the API returns it (replies and events alike). */
export function toAuthMethod(entity: AuthCredentialEntity): AuthMethod {
  return {
    id: entity.id,
    accountId: entity.accountId,
    type: entity.type,
    nickname: entity.nickname,
    ...(entity.passkeyCredentialId !== null ? { credentialId: entity.passkeyCredentialId } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

/** A session is its credential's AuthMethod plus its own id and expiry; the sealed key only when just issued. */
export function toAuthSession(session: AuthSessionEntity, credential: AuthCredentialEntity, encryptedSessionSigningKey?: string): AuthSession {
  const { id: authMethodId, ...method } = toAuthMethod(credential);
  return {
    ...method,
    id: session.id,
    authMethodId,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    ...(encryptedSessionSigningKey ? { encryptedSessionSigningKey } : {}),
  };
}
