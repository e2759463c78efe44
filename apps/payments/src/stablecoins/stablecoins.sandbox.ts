import { createHash } from 'node:crypto';
import { sandboxOutcome, StablecoinIssuanceStatus, StablecoinProviderAccountStatus, StablecoinServiceOperationsStatus } from '@paykit/contracts';

// The built-in sandbox provider: it answers instead of Brale for sandbox platforms. Its magic
// values are suffix tables like the rest of the sandbox (one row per value, anything else succeeds).

/** How long each step of the sandbox provider takes (sandbox time, scaled by SANDBOX_TIME_SCALE). */
export const SANDBOX_PROVIDER_STEP_MS = 30_000;
/** How long a mint or burn waits for external funds before it EXPIRES. */
export const FUNDING_WINDOW_MS = 24 * 3600 * 1000;

/** Linking: the last 3 characters of `apiClientId`. */
export const SANDBOX_LINK_STATUSES: Readonly<Record<string, StablecoinProviderAccountStatus>> = {
  /** The provider refuses the credentials: stored INVALID, usable by nothing. */
  '002': 'INVALID',
};

export function sandboxLinkStatus(apiClientId: string): StablecoinProviderAccountStatus {
  return sandboxOutcome(SANDBOX_LINK_STATUSES, apiClientId, 'ACTIVE');
}

/** The provider's account id for a client id: stable, so relinking the same account is recognised. */
export function sandboxProviderAccountId(apiClientId: string): string {
  return createHash('sha256').update(`sandbox-brale-account:${apiClientId}`).digest('base64url').slice(0, 27);
}

/** One status change of a registered coin, run on the durable scheduler after the previous one. */
export interface StablecoinStep {
  issuanceStatus: StablecoinIssuanceStatus;
  serviceOperationsStatus: StablecoinServiceOperationsStatus;
}

const ENABLED_PATH: StablecoinStep[] = [
  { issuanceStatus: 'PROVISIONING', serviceOperationsStatus: 'NOT_ENABLED' },
  { issuanceStatus: 'PROVISIONED', serviceOperationsStatus: 'PENDING_APPROVAL' },
  { issuanceStatus: 'PROVISIONED', serviceOperationsStatus: 'ENABLING' },
  { issuanceStatus: 'PROVISIONED', serviceOperationsStatus: 'ENABLED' },
];

/** Registration: the last 3 characters of `providerTokenIdentifier` (a coin starts PENDING_REVIEW / NOT_ENABLED). */
export const SANDBOX_REGISTRATION_PATHS: Readonly<Record<string, StablecoinStep[]>> = {
  /** The provider's review rejects the coin. */
  '002': [{ issuanceStatus: 'REJECTED', serviceOperationsStatus: 'NOT_ENABLED' }],
  /** Provisioning fails at the provider. */
  '003': [
    { issuanceStatus: 'PROVISIONING', serviceOperationsStatus: 'NOT_ENABLED' },
    { issuanceStatus: 'FAILED', serviceOperationsStatus: 'NOT_ENABLED' },
  ],
  /** Provisioned, but enabling it for operations is declined. */
  '004': [
    { issuanceStatus: 'PROVISIONING', serviceOperationsStatus: 'NOT_ENABLED' },
    { issuanceStatus: 'PROVISIONED', serviceOperationsStatus: 'PENDING_APPROVAL' },
    { issuanceStatus: 'PROVISIONED', serviceOperationsStatus: 'DISABLED' },
  ],
};

export function registrationPath(sandbox: boolean, providerTokenIdentifier: string): StablecoinStep[] {
  return sandbox ? sandboxOutcome(SANDBOX_REGISTRATION_PATHS, providerTokenIdentifier, ENABLED_PATH) : ENABLED_PATH;
}

/**
 * The provider's metadata of a token it created: the sandbox provider knows every identifier
 * that can be a currency code (3 to 8 capital letters or digits), as a 6-decimal coin on USD.
 */
export function sandboxTokenMetadata(providerTokenIdentifier: string): { name: string; symbol: string; decimals: number; baseCurrency: string } | undefined {
  if (!/^[A-Z0-9]{3,8}$/.test(providerTokenIdentifier)) return undefined;
  return { name: `${providerTokenIdentifier} Dollar`, symbol: providerTokenIdentifier, decimals: 6, baseCurrency: 'USD' };
}

/** Why an operation FAILED (wire values of `failureReason`: frozen): a mint's funds never arrived, a burn's payout failed. */
export const STABLECOIN_FAILURE_REASONS = ['FUNDING_FAILED', 'PAYOUT_FAILED'] as const;
export type StablecoinFailureReason = (typeof STABLECOIN_FAILURE_REASONS)[number];

/**
 * Mints debited from a bank account and burns paid out to one: the last 3 digits of that external
 * account's primary identifier, the transfer table's values. Each fails the operation (a mint with
 * FUNDING_FAILED, a burn with PAYOUT_FAILED, the row as `providerStatus`) and the money returns
 * once. Wire, internal-account and provider-balance funding have no bank to refuse them.
 */
export const SANDBOX_OPERATION_FAILURES: Readonly<Record<string, string>> = {
  '002': 'insufficient_funds',
  '003': 'account_closed_or_invalid',
  '004': 'rejected_by_bank',
  '005': 'timed_out',
};

/** The provider's failure status for the operation, or undefined when it completes. */
export function operationFailure(sandbox: boolean, outcomeKey: string): string | undefined {
  return sandbox ? sandboxOutcome<string | undefined>(SANDBOX_OPERATION_FAILURES, outcomeKey, undefined) : undefined;
}

/** Static timing guidance of each payout rail (the reference's `estimatedDelivery.timing`). */
export const PAYOUT_RAIL_TIMING: Readonly<Record<string, string>> = {
  WIRE: 'same business day',
  ACH_CREDIT: '1-3 business days',
  SAME_DAY_ACH_CREDIT: 'same business day',
  RTP_CREDIT: 'within seconds',
};
