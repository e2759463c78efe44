import { AuthMethodType, DelegatedKeyStatus, SignedOperation } from './enums';

export interface AuthMethod {
  id: string;
  accountId: string;
  type: AuthMethodType;
  nickname: string;
  /** PASSKEY only: base64url WebAuthn credential id. */
  credentialId?: string;
  createdAt: string;
  updatedAt: string;
}

/** A session: the credential it came from plus its own id, expiry and (PASSKEY/OAUTH, once) the sealed key. */
export interface AuthSession extends Omit<AuthMethod, 'id'> {
  id: string;
  authMethodId: string;
  expiresAt: string;
  encryptedSessionSigningKey?: string;
}

export interface SignedRetryChallenge {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
  /**
   * The credential type the challenge is about, on the wallet-auth actions that name one (a
   * credential added, revoked or verified; the credential that opened a session being revoked).
   */
  type?: AuthMethodType;
}

/** Either the 202 challenge of a first call, or the result of a completed signed retry. */
export type SignedRetryOutcome<T> = { challenge: SignedRetryChallenge } | { result: T };

/** EMAIL_OTP/SMS_OTP challenge: the credential itself, plus the HPKE target the fresh code is encrypted to. */
export interface OtpChallengeResponse extends AuthMethod {
  otpEncryptionTargetBundle: string;
}

/** PASSKEY challenge: the credential itself, plus what the assertion is made over and sent back with. */
export interface PasskeyChallengeResponse extends AuthMethod {
  /** Lowercase hex SHA-256 of the pending session-creation request; the client UTF-8 encodes it. */
  challenge: string;
  requestId: string;
  credentialId: string;
  expiresAt: string;
}

export type CredentialChallengeResponse = OtpChallengeResponse | PasskeyChallengeResponse;

export interface EnclaveKey {
  /** Uncompressed P-256 public key (hex) that signs every otpEncryptionTargetBundle; pin it. */
  enclaveQuorumPublic: string;
}

export interface WalletExport {
  /** The exported internal account (the API's name). */
  id: string;
  /** Same as `id` (kept for earlier clients). */
  accountId: string;
  /** The wallet private key sealed to clientPublicKey (open with decryptCredentialBundle). */
  encryptedWalletCredentials: string;
}

/** EMAIL_OTP credentials tied to a customer email (a change of that email is a signed action). */
export interface EmailBinding {
  customerId: string;
  bindings: Array<{ accountId: string; email: string }>;
}

/** What a consumed signed retry proves: who signed which operation. */
export interface SignedRetryProof {
  requestId: string;
  accountId: string;
  operation: SignedOperation;
  /** The session whose key signed; absent for the sandbox legacy header and key-bound challenges. */
  sessionId?: string;
  authMethodId?: string;
  /** True when the sandbox legacy fixed header value was accepted instead of a signature. */
  legacy: boolean;
}

export interface Empty {
  ok: true;
}

/** A key the service holds to sign for a card's embedded wallet funding source (the private key never leaves). */
export interface DelegatedKey {
  id: string;
  cardId: string;
  fundingSourceId: string;
  accountId: string;
  /** Compressed P-256 public key, hex. */
  publicKey: string;
  nickname: string;
  status: DelegatedKeyStatus;
  createdAt: string;
  updatedAt: string;
}
