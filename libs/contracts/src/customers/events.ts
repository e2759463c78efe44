export const CUSTOMERS_EVENTS = {
  customerCreated: 'customers.events.customer.created',
  customerUpdated: 'customers.events.customer.updated',
  /** A customer was deleted: other services close what they hold for it. */
  customerDeleted: 'customers.events.customer.deleted',
  kycStatusChanged: 'customers.events.customer.kyc-status-changed',
  contactVerified: 'customers.events.customer.contact-verified',
  beneficialOwnerCreated: 'customers.events.beneficial-owner.created',
  beneficialOwnerUpdated: 'customers.events.beneficial-owner.updated',
  documentReviewed: 'customers.events.document.reviewed',
  documentDeleted: 'customers.events.document.deleted',
  verificationUpdated: 'customers.events.verification.updated',
  bulkImportFinished: 'customers.events.bulk-import.finished',
} as const;

/** Webhook event types announced to the platform (spec "Events"; bulk names are ours). Wire values: frozen. */
export const CUSTOMER_WEBHOOK_TYPES = {
  KYC: { PENDING: 'CUSTOMER.KYC_PENDING', APPROVED: 'CUSTOMER.KYC_APPROVED', REJECTED: 'CUSTOMER.KYC_REJECTED' },
  KYB: { PENDING: 'CUSTOMER.KYB_PENDING', APPROVED: 'CUSTOMER.KYB_APPROVED', REJECTED: 'CUSTOMER.KYB_REJECTED' },
  VERIFICATION: {
    APPROVED: 'VERIFICATION.APPROVED',
    REJECTED: 'VERIFICATION.REJECTED',
    RESOLVE_ERRORS: 'VERIFICATION.RESOLVE_ERRORS',
    IN_PROGRESS: 'VERIFICATION.IN_PROGRESS',
    PENDING_MANUAL_REVIEW: 'VERIFICATION.PENDING_MANUAL_REVIEW',
  },
  BULK_UPLOAD_COMPLETED: 'BULK_UPLOAD.COMPLETED',
  BULK_UPLOAD_FAILED: 'BULK_UPLOAD.FAILED',
} as const;

/** Durable consumer names of the customers service (wire values: frozen): provisioning progress, from payments and from wallet-auth. */
export const CUSTOMERS_ACCOUNTS_PROVISIONED_CONSUMER = 'customers-accounts-provisioned';
export const CUSTOMERS_WALLETS_PROVISIONED_CONSUMER = 'customers-wallets-provisioned';
