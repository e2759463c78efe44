import {
  HoldStatus,
  IncomingFailureReason,
  InternalAccountStatus,
  InternalAccountType,
  OutgoingFailureReason,
  PaymentAccountType,
  PaymentRail,
  PurposeOfPayment,
  RailSelectionMode,
  RefundReason,
  RefundStatus,
  TransactionDirection,
  TransactionStatus,
  TransactionType,
} from './enums';

export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

export interface Money {
  /** Smallest unit of the currency. */
  amount: number;
  currency: Currency;
}

export interface InternalAccount {
  id: string;
  /** Absent for the platform's own accounts. */
  customerId?: string;
  type: InternalAccountType;
  status: InternalAccountStatus;
  /** The available balance: posted funds less pending holds. */
  balance: Money;
  /** Every posted fund, pending holds included. */
  totalBalance: Money;
  /** How to fund the account from outside, one entry per rail family (deterministic per account). */
  fundingPaymentInstructions: PaymentInstructions[];
  privateEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * What `payments.internal-account.get` answers: the resource plus fields for other services
 * only (the gateway never returns them).
 */
export interface InternalAccountRecord extends InternalAccount {
  /** EMBEDDED_WALLET only: the customer's email the first EMAIL_OTP credential is bound to. */
  walletEmail?: string;
  /** ISO code of the account currency (same as balance.currency.code). */
  currencyCode: string;
}

/**
 * Where to send funds so that they land in an internal account. The fields present depend on
 * `accountType` (bank fields for fiat, an address for crypto).
 */
export interface PaymentAccountInfo {
  accountType: PaymentAccountType;
  paymentRails?: string[];
  /** The memo or reference the payer must include, so the funds reach this account. */
  reference?: string;
  accountNumber?: string;
  routingNumber?: string;
  bankName?: string;
  bankAccountType?: 'CHECKING' | 'SAVINGS';
  bankAddress?: string;
  iban?: string;
  swiftCode?: string;
  clabeNumber?: string;
  sortCode?: string;
  bankCode?: string;
  branchCode?: string;
  vpa?: string;
  ifsc?: string;
  phoneNumber?: string;
  provider?: string;
  region?: string;
  qrCode?: string;
  paymentUrl?: string;
  address?: string;
  assetType?: string;
  network?: string;
}

export interface PaymentInstructions {
  instructionsNotes?: string;
  /** True when the receiving account is the platform's own. */
  isPlatformAccount?: boolean;
  accountOrWalletInfo: PaymentAccountInfo;
}

export interface Hold {
  id: string;
  accountId: string;
  status: HoldStatus;
  /** The amount held. */
  amount: number;
  capturedAmount: number;
  refundedAmount: number;
  currency: string;
  reference?: string;
  /** The account's available balance right after the operation. */
  availableBalance: number;
  createdAt: string;
  updatedAt: string;
}

export interface Credit {
  id: string;
  accountId: string;
  amount: number;
  currency: string;
  reference?: string;
  /** The account's available balance right after the credit (or, on a replay, now). */
  availableBalance: number;
  createdAt: string;
}

/** The on-chain leg of a transfer to or from a wallet: the network it settled on and its transaction hash. */
export interface OnChainTransaction {
  transactionHash: string;
  network: string;
}

/** The account funds leave (`sourceType` ACCOUNT: an internal or external account id). */
export interface TransactionSource {
  /** ACCOUNT: an internal or external account (`accountId`); UMA_ADDRESS: a UMA counterparty (`umaAddress`). */
  sourceType: 'ACCOUNT' | 'UMA_ADDRESS';
  accountId?: string;
  umaAddress?: string;
  currency: string;
}

/** The account funds arrive in (`destinationType` ACCOUNT: an internal or external account id). */
export interface TransactionDestination {
  /** ACCOUNT: an internal or external account (`accountId`); UMA_ADDRESS: a UMA counterparty (`umaAddress`). */
  destinationType: 'ACCOUNT' | 'UMA_ADDRESS';
  accountId?: string;
  umaAddress?: string;
  currency: string;
  /** Wallet destinations only. */
  onChainTransaction?: OnChainTransaction;
  /** The rail transfer that paid the destination, once the receiving bank returned it. */
  railDetails?: TransactionRailDetails;
}

/** A payout's rail transfer, as the guides' bank return shows it: its rail, status RETURNED and when. */
export interface TransactionRailDetails {
  paymentRail: PaymentRail;
  status: 'RETURNED';
  returnedAt: string;
}

/** A transaction's refund (the reference's Refund), tracked apart from the payment's status. */
export interface TransactionRefund {
  reference: string;
  initiatedAt: string;
  settledAt?: string;
  status: RefundStatus;
  reason: RefundReason;
}

export interface Transaction {
  id: string;
  type: TransactionType;
  status: TransactionStatus;
  /** DEBIT for OUTGOING (funds leave the internal account), CREDIT for INCOMING. */
  direction: TransactionDirection;
  /** The customer owning the internal account; the platform's id for the platform's own accounts. */
  customerId: string;
  /** The platform's id of that customer; the platform's id for the platform's own accounts. */
  platformCustomerId: string;
  source: TransactionSource;
  destination: TransactionDestination;
  sentAmount: Money;
  receivedAmount: Money;
  /** Cross-currency payments: the fees the quote locked, smallest unit of the sent currency (as the quote's `feesIncluded`). */
  fees?: number;
  /** The platform's part of `fees` (its configured fee or the quote's override; as the quote's `platformFeesIncluded`). */
  platformFees?: number;
  /** OUTGOING: the rail the payout uses, and whether the request named it. */
  paymentRail?: PaymentRail;
  railSelectionMode?: RailSelectionMode;
  /** OUTGOING: free text that travels with the payment to the recipient. */
  remittanceInformation?: string;
  purposeOfPayment?: PurposeOfPayment;
  description?: string;
  failureReason?: OutgoingFailureReason | IncomingFailureReason;
  createdAt: string;
  updatedAt: string;
  settledAt?: string;
  /** The quote a cross-currency payment executed. */
  quoteId?: string;
  /** When the platform confirmed delivering the receipt (POST /transactions/{id}/confirm). */
  receiptDeliveryConfirmedAt?: string;
  /** What the counterparty shared about itself (UMA payments). */
  counterpartyInformation?: Record<string, unknown>;
  /** The refund of a payment that failed or was cancelled after its money moved; absent when there is none. */
  refund?: TransactionRefund;
  /** INCOMING_PAYMENT.PENDING webhooks only: the receiver data the sender asks for, to give when approving. */
  requestedReceiverCustomerInfoFields?: Array<{ name: string; mandatory: boolean }>;
}

export interface DailyVolumeLimit {
  currency: string;
  /** Absent: no limit in the currency. */
  maxAmountPerDay?: number;
}

export interface VelocityLimit {
  customerId: string;
  currency: string;
  maxCountPerDay?: number;
  maxAmountPerDay?: number;
}
