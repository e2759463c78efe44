import {
  amountToWire,
  IncomingFailureReason,
  INCOMING_FAILURE_REASONS,
  NewEvent,
  OUTGOING_FAILURE_REASONS,
  OutgoingFailureReason,
  PAYMENTS_EVENTS,
  Transaction,
  TransactionRefund,
  TransactionType,
  tenantPlatformId,
  transactionRefundWebhookType,
  transactionWebhookType,
} from '@paykit/contracts';
import { CurrencyInfo } from '../currencies/currencies.repository';
import { toCurrency } from '../currencies/currency-catalog';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';
import { TransferFailureReason } from './transfers.sandbox';

/**
 * The API's failure reason for the rail's cause, by direction. A payout the rail refuses for
 * funds is over what it may carry (LIMIT_EXCEEDED); a closed or invalid account is
 * ACCOUNT_INVALID; a bank rejection means the account cannot receive; a payout that timed out
 * after processing came back (PAYOUT_RETURNED). Every failed pull is a failed collection.
 * Cross-currency payments and decisions store the API's reason itself; a cancellation has no
 * reason of the API's (the status says FAILED, the reason stays unset).
 */
const OUTGOING_REASON: Readonly<Record<Exclude<TransferFailureReason, 'CANCELLED'>, OutgoingFailureReason>> = {
  INSUFFICIENT_FUNDS: 'LIMIT_EXCEEDED',
  ACCOUNT_CLOSED_OR_INVALID: 'ACCOUNT_INVALID',
  REJECTED_BY_BANK: 'ACCOUNT_CANNOT_RECEIVE',
  TIMED_OUT: 'PAYOUT_RETURNED',
};

export function apiFailureReason(type: TransactionType, cause: string): OutgoingFailureReason | IncomingFailureReason | undefined {
  if (cause === 'CANCELLED') return undefined;
  if (type === 'INCOMING') return (INCOMING_FAILURE_REASONS as readonly string[]).includes(cause) ? (cause as IncomingFailureReason) : 'COLLECTION_FAILED';
  if ((OUTGOING_FAILURE_REASONS as readonly string[]).includes(cause)) return cause as OutgoingFailureReason;
  return OUTGOING_REASON[cause as Exclude<TransferFailureReason, 'CANCELLED'>] ?? 'ACCOUNT_CANNOT_RECEIVE';
}

/**
 * The Transaction resource exactly as the API returns it (GET, replies and webhooks alike).
 * The platform's own accounts have no customer: their transactions name the platform instead.
 * A cross-currency payment's counterparty is paid in the received currency; a UMA counterparty
 * is named by its address.
 */
export function toTransaction(entity: PaymentTransactionEntity, currency: CurrencyInfo, platformId: string, receivedCurrency: CurrencyInfo = currency): Transaction {
  const outgoing = entity.type === 'OUTGOING';
  const internal = { accountId: entity.internalAccountId, currency: entity.currencyCode };
  const counterpartyCurrency = outgoing ? receivedCurrency.code : entity.currencyCode;
  const uma = entity.externalAccountId === null && entity.counterpartyUmaAddress !== null ? entity.counterpartyUmaAddress : undefined;
  // A payout to a wallet: the on-chain leg (network and hash) of its destination.
  const onChain =
    entity.cryptoNetwork !== null && entity.onChainTransactionHash !== null ? { transactionHash: entity.onChainTransactionHash, network: entity.cryptoNetwork } : null;
  // A payout the receiving bank returned: its rail transfer, RETURNED, and when.
  const returned =
    outgoing && entity.returnedAt !== null && entity.paymentRail !== null
      ? { railDetails: { paymentRail: entity.paymentRail, status: 'RETURNED' as const, returnedAt: entity.returnedAt.toISOString() } }
      : {};
  const external = { accountId: entity.externalAccountId ?? '', currency: counterpartyCurrency, ...(onChain ? { onChainTransaction: onChain } : {}) };
  const money = { amount: amountToWire(entity.amount), currency: toCurrency(currency) };
  const received = { amount: amountToWire(entity.receivedAmount ?? entity.amount), currency: toCurrency(receivedCurrency) };
  const failureReason = entity.failureReason !== null ? apiFailureReason(entity.type, entity.failureReason) : undefined;
  return {
    id: entity.id,
    type: entity.type,
    status: entity.status,
    direction: outgoing ? 'DEBIT' : 'CREDIT',
    customerId: entity.customerId ?? tenantPlatformId(platformId),
    platformCustomerId: entity.platformCustomerId ?? entity.customerId ?? tenantPlatformId(platformId),
    source: outgoing
      ? { sourceType: 'ACCOUNT', ...internal }
      : uma !== undefined
        ? { sourceType: 'UMA_ADDRESS', umaAddress: uma, currency: counterpartyCurrency }
        : { sourceType: 'ACCOUNT', ...external },
    destination: !outgoing
      ? { destinationType: 'ACCOUNT', ...internal }
      : uma !== undefined
        ? { destinationType: 'UMA_ADDRESS', umaAddress: uma, currency: counterpartyCurrency }
        : { destinationType: 'ACCOUNT', ...external, ...returned },
    sentAmount: money,
    receivedAmount: received,
    ...(entity.fees !== null ? { fees: amountToWire(entity.fees), platformFees: amountToWire(entity.platformFees ?? 0n) } : {}),
    ...(entity.paymentRail !== null ? { paymentRail: entity.paymentRail } : {}),
    ...(entity.railSelectionMode !== null ? { railSelectionMode: entity.railSelectionMode } : {}),
    ...(entity.remittanceInformation !== null ? { remittanceInformation: entity.remittanceInformation } : {}),
    ...(entity.purposeOfPayment !== null ? { purposeOfPayment: entity.purposeOfPayment } : {}),
    ...(entity.description !== null ? { description: entity.description } : {}),
    ...(failureReason !== undefined ? { failureReason } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
    ...(entity.settledAt !== null ? { settledAt: entity.settledAt.toISOString() } : {}),
    ...(entity.quoteId !== null ? { quoteId: entity.quoteId } : {}),
    ...(entity.counterpartyInformation !== null ? { counterpartyInformation: entity.counterpartyInformation } : {}),
    ...(entity.receiptDeliveryConfirmedAt !== null ? { receiptDeliveryConfirmedAt: entity.receiptDeliveryConfirmedAt.toISOString() } : {}),
    ...(entity.refundStatus !== null ? { refund: toRefund(entity) } : {}),
  };
}

/** The transaction's `refund` object, as the reference shapes it (settledAt once the refund ended). */
function toRefund(entity: PaymentTransactionEntity): TransactionRefund {
  return {
    reference: entity.refundReference!,
    initiatedAt: entity.refundInitiatedAt!.toISOString(),
    ...(entity.refundSettledAt !== null ? { settledAt: entity.refundSettledAt.toISOString() } : {}),
    status: entity.refundStatus!,
    reason: entity.refundReason!,
  };
}

/** Every status a transaction's refund enters is announced (`<TYPE>_PAYMENT.REFUND_<STATUS>`), with the transaction as GET returns it. */
export function transactionRefundEvent(platformId: string, transaction: Transaction): NewEvent<typeof PAYMENTS_EVENTS.transactionRefundChanged> {
  return {
    subject: PAYMENTS_EVENTS.transactionRefundChanged,
    platformId,
    resourceId: transaction.id,
    webhookType: transactionRefundWebhookType(transaction.type, transaction.refund!.status),
    data: transaction,
  };
}

/** Every status a transaction enters is announced, with the transaction as GET returns it. */
export function transactionStatusEvent(platformId: string, transaction: Transaction): NewEvent<typeof PAYMENTS_EVENTS.transactionStatusChanged> {
  return {
    subject: PAYMENTS_EVENTS.transactionStatusChanged,
    platformId,
    resourceId: transaction.id,
    webhookType: transactionWebhookType(transaction.type, transaction.status),
    data: transaction,
  };
}
