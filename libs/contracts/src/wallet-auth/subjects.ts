import {
  AuthMethod,
  AuthSession,
  CredentialChallengeResponse,
  DelegatedKey,
  EmailBinding,
  Empty,
  EnclaveKey,
  SignedRetryChallenge,
  SignedRetryOutcome,
  SignedRetryProof,
  WalletExport,
} from './replies';
import {
  ChallengeCredentialRequest,
  ConsumeSignedRetryRequest,
  CreateCredentialRequest,
  CreateDelegatedKeyRequest,
  DelegatedKeyIdRequest,
  EmailBindingRequest,
  ExportWalletRequest,
  IssueSignedRetryRequest,
  ListByAccountQuery,
  ListDelegatedKeysQuery,
  RefreshSessionRequest,
  RevokeCredentialRequest,
  SessionIdRequest,
  UpdateEmailBindingRequest,
  VerifyCredentialRequest,
} from './requests';

export const WALLET_AUTH_SUBJECTS = {
  createCredential: 'wallet-auth.credential.create',
  listCredentials: 'wallet-auth.credential.list',
  challengeCredential: 'wallet-auth.credential.challenge',
  verifyCredential: 'wallet-auth.credential.verify',
  revokeCredential: 'wallet-auth.credential.revoke',
  listSessions: 'wallet-auth.session.list',
  revokeSession: 'wallet-auth.session.revoke',
  refreshSession: 'wallet-auth.session.refresh',
  getEnclaveKey: 'wallet-auth.enclave-key.get',
  exportWallet: 'wallet-auth.wallet.export',
  getEmailBinding: 'wallet-auth.email-binding.get',
  /** The customer's new email onto its tied EMAIL_OTP credentials (the signed email change applies it). */
  updateEmailBinding: 'wallet-auth.email-binding.update',
  /** The signed-retry mechanism every service uses (docs/architecture.md, "Signed retry"). */
  issueSignedRetry: 'wallet-auth.signed-retry.issue',
  consumeSignedRetry: 'wallet-auth.signed-retry.consume',
  /** POST /auth/delegated-keys: three legs (challenge, signed creation answering a second challenge, signed activation). */
  createDelegatedKey: 'wallet-auth.delegated-key.create',
  listDelegatedKeys: 'wallet-auth.delegated-key.list',
  getDelegatedKey: 'wallet-auth.delegated-key.get',
  revokeDelegatedKey: 'wallet-auth.delegated-key.revoke',
} as const;

export interface WalletAuthContract {
  [WALLET_AUTH_SUBJECTS.createCredential]: { request: CreateCredentialRequest; reply: SignedRetryOutcome<AuthMethod> };
  [WALLET_AUTH_SUBJECTS.listCredentials]: { request: ListByAccountQuery; reply: { data: AuthMethod[] } };
  [WALLET_AUTH_SUBJECTS.challengeCredential]: { request: ChallengeCredentialRequest; reply: CredentialChallengeResponse };
  [WALLET_AUTH_SUBJECTS.verifyCredential]: { request: VerifyCredentialRequest; reply: SignedRetryOutcome<AuthSession> };
  [WALLET_AUTH_SUBJECTS.revokeCredential]: { request: RevokeCredentialRequest; reply: SignedRetryOutcome<Empty> };
  [WALLET_AUTH_SUBJECTS.listSessions]: { request: ListByAccountQuery; reply: { data: AuthSession[] } };
  [WALLET_AUTH_SUBJECTS.revokeSession]: { request: SessionIdRequest; reply: SignedRetryOutcome<Empty> };
  [WALLET_AUTH_SUBJECTS.refreshSession]: { request: RefreshSessionRequest; reply: SignedRetryOutcome<AuthSession> };
  [WALLET_AUTH_SUBJECTS.getEnclaveKey]: { request: Record<string, never>; reply: EnclaveKey };
  [WALLET_AUTH_SUBJECTS.exportWallet]: { request: ExportWalletRequest; reply: SignedRetryOutcome<WalletExport> };
  [WALLET_AUTH_SUBJECTS.getEmailBinding]: { request: EmailBindingRequest; reply: EmailBinding };
  [WALLET_AUTH_SUBJECTS.updateEmailBinding]: { request: UpdateEmailBindingRequest; reply: EmailBinding };
  [WALLET_AUTH_SUBJECTS.issueSignedRetry]: { request: IssueSignedRetryRequest; reply: SignedRetryChallenge };
  [WALLET_AUTH_SUBJECTS.consumeSignedRetry]: { request: ConsumeSignedRetryRequest; reply: SignedRetryProof };
  [WALLET_AUTH_SUBJECTS.createDelegatedKey]: { request: CreateDelegatedKeyRequest; reply: SignedRetryOutcome<DelegatedKey> };
  [WALLET_AUTH_SUBJECTS.listDelegatedKeys]: { request: ListDelegatedKeysQuery; reply: { data: DelegatedKey[] } };
  [WALLET_AUTH_SUBJECTS.getDelegatedKey]: { request: DelegatedKeyIdRequest; reply: DelegatedKey };
  [WALLET_AUTH_SUBJECTS.revokeDelegatedKey]: { request: DelegatedKeyIdRequest; reply: Empty };
}
