export const EXTERNAL_ACCOUNTS_EVENTS = {
  accountCreated: 'external-accounts.events.external-account.created',
  accountUpdated: 'external-accounts.events.external-account.updated',
  statusChanged: 'external-accounts.events.external-account.status-changed',
} as const;

/** Webhook types announced to the platform (`data` = the ExternalAccount as GET returns it). */
export const EXTERNAL_ACCOUNT_WEBHOOK_TYPES = {
  /** Every status transition after creation: verification resolved, ownership proven or failed, re-review, removal. */
  statusUpdated: 'EXTERNAL_ACCOUNT.STATUS_UPDATED',
} as const;
