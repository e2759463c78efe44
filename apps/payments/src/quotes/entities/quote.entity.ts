import {
  PaymentRail,
  QuoteDestinationType,
  QuoteFailureReason,
  QuoteLockSide,
  QuoteSourceType,
  QuoteStatus,
  ScaChallenge,
  ScaChallengePurpose,
  ScaFactor,
} from '@paykit/contracts';

/** What a quote pays: the kind of destination decides where the destination leg posts. */
export const QUOTE_DESTINATION_KINDS = ['INTERNAL_ACCOUNT', 'EXTERNAL_ACCOUNT', 'UMA_SANDBOX', 'UMA_CUSTOMER'] as const;
export type QuoteDestinationKind = (typeof QUOTE_DESTINATION_KINDS)[number];

/** Fields a quote keeps for its answer only (nothing queries them). */
export interface QuoteExtra {
  remittanceInformation?: string;
  purposeOfPayment?: string;
  lookupId?: string;
  senderCustomerInfo?: Record<string, unknown>;
  counterpartyInformation?: Record<string, unknown>;
  /** The platform's own id of the paying customer, when it has one. */
  platformCustomerId?: string;
  /** Whether the request named the payout rail (MANUAL) or the corridor's first was taken (AUTO). */
  railChosen?: boolean;
  /** An EMBEDDED_WALLET source: the challenge issued with the quote, whose stamp executes it in one call (`paymentInstructions[].accountOrWalletInfo.payloadToSign`). */
  walletSignature?: { requestId: string; payloadToSign: string };
  /** The paying customer is SCA-regulated (customers' `scaRegulated` at creation): executing needs Strong Customer Authentication. */
  scaRegulated?: boolean;
  /** The factor the request preferred for its challenges (`scaFactor`). */
  scaFactor?: ScaFactor;
  /** While PENDING_AUTHORIZATION: the challenge to answer now and the purposes still to authorize after it. */
  sca?: { challenge: ScaChallenge; remaining: ScaChallengePurpose[] };
}

/** A priced, locked cross-currency payment (table `quote`). */
export interface QuoteEntity {
  id: string;
  platformId: string;
  status: QuoteStatus;
  sourceType: QuoteSourceType;
  sourceAccountId: string | null;
  /** REALTIME_FUNDING: the internal account the payment is recorded against (the customer's, or the platform's, in the source currency); nothing is debited from it. */
  fundingAccountId: string | null;
  customerId: string | null;
  sourceCurrency: string;
  cryptoNetwork: string | null;
  destinationType: QuoteDestinationType;
  destinationKind: QuoteDestinationKind;
  /** The internal or external account paid (ACCOUNT destinations), or the receiving customer's account (UMA_CUSTOMER). */
  destinationAccountId: string | null;
  destinationUmaAddress: string | null;
  destinationCurrency: string;
  paymentRail: PaymentRail;
  lockedSide: QuoteLockSide;
  sendingAmount: bigint;
  receivingAmount: bigint;
  serviceFee: bigint;
  platformFee: bigint;
  rateMicros: bigint;
  fixedFee: bigint;
  variableFeeBps: number;
  transactionId: string;
  /** The sandbox outcome key (last 3 digits of the destination's identifier); null outside the sandbox table. */
  sandboxOutcome: string | null;
  fundingReference: string | null;
  description: string | null;
  extra: QuoteExtra;
  /** Executed at its creation without an Idempotency-Key: the hash of its request, which a client's automatic retry of it matches (`client-retries.ts`). */
  requestFingerprint: string | null;
  failureReason: QuoteFailureReason | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
  executedAt: Date | null;
}
