import { HoldStatus, InternalAccountStatus, InternalAccountType, TransactionStatus, TransactionType } from './enums';

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

export interface TransactionEndpoint {
  accountId: string;
  currency: string;
  /** Wallet destinations only. */
  onChainTransaction?: OnChainTransaction;
}

export interface Transaction {
  id: string;
  type: TransactionType;
  status: TransactionStatus;
  customerId?: string;
  source: TransactionEndpoint;
  destination: TransactionEndpoint;
  sentAmount: Money;
  receivedAmount: Money;
  description?: string;
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
  settledAt?: string;
}

export interface VelocityLimit {
  customerId: string;
  currency: string;
  maxCountPerDay?: number;
  maxAmountPerDay?: number;
}
