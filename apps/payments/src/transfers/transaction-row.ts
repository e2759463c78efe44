import { PaymentRail, PurposeOfPayment, RailSelectionMode, RefundReason, RefundStatus, TransactionStatus, TransactionType } from '@paykit/contracts';
import { amountFromColumn } from '@paykit/persistence';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';

/** A payment_transaction row as the driver returns it, and its mapping to the entity (reads and joins of other repositories alike). */
export interface TransactionRow {
  id: string;
  platform_id: string;
  type: TransactionType;
  status: TransactionStatus;
  customer_id: string | null;
  platform_customer_id: string | null;
  internal_account_id: string;
  external_account_id: string | null;
  quote_id: string | null;
  received_currency_code: string | null;
  received_amount: string | null;
  counterparty_uma_address: string | null;
  receipt_delivery_confirmed_at: Date | string | null;
  counterparty_information: Record<string, unknown> | string | null;
  fees: string | null;
  platform_fees: string | null;
  currency_code: string;
  amount: string;
  hold_id: string | null;
  description: string | null;
  failure_reason: string | null;
  payment_rail: PaymentRail | null;
  rail_selection_mode: RailSelectionMode | null;
  remittance_information: string | null;
  purpose_of_payment: PurposeOfPayment | null;
  crypto_network: string | null;
  onchain_transaction_hash: string | null;
  request_fingerprint: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  settled_at: Date | string | null;
  refund_reference: string | null;
  refund_status: RefundStatus | null;
  refund_reason: RefundReason | null;
  refund_initiated_at: Date | string | null;
  refund_settled_at: Date | string | null;
  returned_at: Date | string | null;
}

/** Every column of a transaction row (complete by its type), for reads that join a transaction to another table. */
const TRANSACTION_COLUMNS = Object.keys({
  id: 0,
  platform_id: 0,
  type: 0,
  status: 0,
  customer_id: 0,
  platform_customer_id: 0,
  internal_account_id: 0,
  external_account_id: 0,
  quote_id: 0,
  received_currency_code: 0,
  received_amount: 0,
  counterparty_uma_address: 0,
  receipt_delivery_confirmed_at: 0,
  counterparty_information: 0,
  fees: 0,
  platform_fees: 0,
  currency_code: 0,
  amount: 0,
  hold_id: 0,
  description: 0,
  failure_reason: 0,
  payment_rail: 0,
  rail_selection_mode: 0,
  remittance_information: 0,
  purpose_of_payment: 0,
  crypto_network: 0,
  onchain_transaction_hash: 0,
  request_fingerprint: 0,
  created_at: 0,
  updated_at: 0,
  settled_at: 0,
  refund_reference: 0,
  refund_status: 0,
  refund_reason: 0,
  refund_initiated_at: 0,
  refund_settled_at: 0,
  returned_at: 0,
} satisfies Record<keyof TransactionRow, 0>);

/** The select list of transaction `alias` in a join, each column named `t.<column>` so that none collides with the other table's. */
export function joinedTransactionColumns(alias: string): string {
  return TRANSACTION_COLUMNS.map((column) => `${alias}.${column} AS "t.${column}"`).join(', ');
}

/** The transaction of a row read with `joinedTransactionColumns`. */
export function joinedTransaction(row: object): PaymentTransactionEntity {
  const named = row as Record<string, unknown>;
  return toEntity(Object.fromEntries(TRANSACTION_COLUMNS.map((column) => [column, named[`t.${column}`]])) as unknown as TransactionRow);
}

export function toEntity(row: TransactionRow): PaymentTransactionEntity {
  return {
    id: row.id,
    platformId: row.platform_id,
    type: row.type,
    status: row.status,
    customerId: row.customer_id,
    platformCustomerId: row.platform_customer_id,
    internalAccountId: row.internal_account_id,
    externalAccountId: row.external_account_id,
    currencyCode: row.currency_code,
    amount: amountFromColumn(row.amount),
    holdId: row.hold_id,
    description: row.description,
    failureReason: row.failure_reason,
    paymentRail: row.payment_rail,
    railSelectionMode: row.rail_selection_mode,
    remittanceInformation: row.remittance_information,
    purposeOfPayment: row.purpose_of_payment,
    cryptoNetwork: row.crypto_network,
    onChainTransactionHash: row.onchain_transaction_hash,
    requestFingerprint: row.request_fingerprint,

    quoteId: row.quote_id,
    receivedCurrencyCode: row.received_currency_code,
    receivedAmount: row.received_amount === null ? null : amountFromColumn(row.received_amount),
    counterpartyUmaAddress: row.counterparty_uma_address,
    receiptDeliveryConfirmedAt: row.receipt_delivery_confirmed_at === null ? null : new Date(row.receipt_delivery_confirmed_at),
    counterpartyInformation:
      typeof row.counterparty_information === 'string' ? (JSON.parse(row.counterparty_information) as Record<string, unknown>) : row.counterparty_information,
    fees: row.fees === null ? null : amountFromColumn(row.fees),
    platformFees: row.platform_fees === null ? null : amountFromColumn(row.platform_fees),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    settledAt: row.settled_at === null ? null : new Date(row.settled_at),
    refundReference: row.refund_reference,
    refundStatus: row.refund_status,
    refundReason: row.refund_reason,
    refundInitiatedAt: row.refund_initiated_at === null ? null : new Date(row.refund_initiated_at),
    refundSettledAt: row.refund_settled_at === null ? null : new Date(row.refund_settled_at),
    returnedAt: row.returned_at === null || row.returned_at === undefined ? null : new Date(row.returned_at),
  };
}
