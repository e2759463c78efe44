import { PaymentRail } from '../payments/enums';
import { AccountType, WalletNetwork } from './corridors';
import { BeneficiaryVerificationStatus, ExternalAccountOwnerType, ExternalAccountStatus, OwnershipType, OwnershipVerificationMethod } from './enums';

export type AccountInfo = Record<string, unknown> & { accountType: AccountType };

/** The accountInfo of a response: as registered, plus the rails the destination can be paid by (bank and mobile-money types). */
export type AccountInfoWithRails = AccountInfo & { paymentRails?: PaymentRail[] };

/**
 * A check stricter than the reference API (a check digit, a discovery-list match, an IBAN's
 * country length) that the account data fails: reported, never refused.
 */
export interface ExternalAccountWarning {
  field: string;
  message: string;
}

export interface ExternalAccount {
  id: string;
  /** Absent for platform external accounts. */
  customerId?: string;
  status: ExternalAccountStatus;
  currency: string;
  platformAccountId?: string;
  ownershipType?: OwnershipType;
  defaultUmaDepositAccount?: boolean;
  accountInfo: AccountInfoWithRails;
  /** Present where the rail supports name verification (every type with a beneficiary). */
  beneficiaryVerificationStatus?: BeneficiaryVerificationStatus;
  /** Present when the data fails a check stricter than the reference API (see ExternalAccountWarning). */
  warnings?: ExternalAccountWarning[];
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
  /** Wallet destinations: the blockchain network the address lives on (payments records it on the transaction). */
  network?: WalletNetwork;
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

/** An ownership challenge: WALLET_SIGNATURE carries messageToSign, LIVENESS a verificationLink. */
export interface OwnershipChallenge {
  method: OwnershipVerificationMethod;
  messageToSign?: string;
  verificationLink?: string;
  expiresAt: string;
}
