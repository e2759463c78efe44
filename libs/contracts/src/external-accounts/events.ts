export const EXTERNAL_ACCOUNTS_EVENTS = {
  accountCreated: 'external-accounts.events.external-account.created',
  accountUpdated: 'external-accounts.events.external-account.updated',
  statusChanged: 'external-accounts.events.external-account.status-changed',
} as const;

/** Webhook types announced to the platform (`data` = the ExternalAccount as GET returns it). */
export const EXTERNAL_ACCOUNT_WEBHOOK_TYPES = {
  /** Every status transition after creation: verification resolved, re-review, removal. */
  statusChange: 'EXTERNAL_ACCOUNT.STATUS_CHANGE',
} as const;
