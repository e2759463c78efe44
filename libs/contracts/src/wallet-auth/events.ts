export const WALLET_AUTH_EVENTS = {
  credentialCreated: 'wallet-auth.events.credential.created',
  credentialRevoked: 'wallet-auth.events.credential.revoked',
  credentialEmailChanged: 'wallet-auth.events.credential.email-changed',
  sessionCreated: 'wallet-auth.events.session.created',
  sessionRevoked: 'wallet-auth.events.session.revoked',
  /**
   * A customer's embedded wallet is usable: its key is sealed and its EMAIL_OTP credential exists
   * (that credential is announced by this event, not by `credentialCreated`).
   */
  walletProvisioned: 'wallet-auth.events.wallet.provisioned',
} as const;

/** `data` of `wallet-auth.events.wallet.provisioned`. */
export interface WalletProvisionedData {
  customerId: string;
  accountId: string;
  /** The wallet's first credential (EMAIL_OTP, bound to the customer's email), when it has one. */
  credentialId?: string;
}
