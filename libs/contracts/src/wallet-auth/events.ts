export const WALLET_AUTH_EVENTS = {
  credentialCreated: 'wallet-auth.events.credential.created',
  credentialRevoked: 'wallet-auth.events.credential.revoked',
  credentialEmailChanged: 'wallet-auth.events.credential.email-changed',
  sessionCreated: 'wallet-auth.events.session.created',
  sessionRevoked: 'wallet-auth.events.session.revoked',
} as const;
