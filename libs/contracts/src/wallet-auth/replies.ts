import { AuthMethodType, SignedOperation } from './enums';

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
}

/** Either the 202 challenge of a first call, or the result of a completed signed retry. */
export type SignedRetryOutcome<T> = { challenge: SignedRetryChallenge } | { result: T };

export interface OtpChallengeResponse {
  otpEncryptionTargetBundle: string;
  expiresAt: string;
}

export interface PasskeyChallengeResponse {
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
