import { AccountType, BeneficiaryVerificationStatus, ExternalAccountOwnerType, ExternalAccountStatus } from './enums';

export type AccountInfo = Record<string, unknown> & { accountType: AccountType };

export interface ExternalAccount {
  id: string;
  /** Absent for platform external accounts. */
  customerId?: string;
  status: ExternalAccountStatus;
  currency: string;
  platformAccountId: string;
  accountInfo: AccountInfo;
  /** Present where the rail supports name verification (every type with a beneficiary). */
  beneficiaryVerificationStatus?: BeneficiaryVerificationStatus;
  createdAt: string;
  updatedAt: string;
}

/** Internal-only facts for other services (payments); never exposed over HTTP. */
export interface ExternalAccountRouting {
  /** Last 3 characters of the primary identifier (username part for user@domain ids): sandbox outcomes. */
  primaryIdentifierLast3: string;
  /** True only for ACTIVE accounts. */
  canReceivePayments: boolean;
  ownerType: ExternalAccountOwnerType;
}

export interface ExternalAccountWithRouting extends ExternalAccount {
  routing: ExternalAccountRouting;
}

export interface DiscoveryEntry {
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
}

export interface DiscoveryList {
  data: DiscoveryEntry[];
}

export interface ExternalAccountPage {
  data: ExternalAccount[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}
