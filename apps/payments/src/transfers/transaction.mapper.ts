import { amountToWire, IncomingFailureReason, OutgoingFailureReason, Transaction, TransactionType } from '@paykit/contracts';
import { CurrencyInfo } from '../currencies/currencies.repository';
import { toCurrency } from '../currencies/currency-catalog';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';
import { TransferFailureReason } from './transfers.sandbox';

/**
 * The API's failure reason for the rail's cause, by direction. A payout the rail refuses for
 * funds is over what it may carry (LIMIT_EXCEEDED); a closed or invalid account is
 * ACCOUNT_INVALID; a bank rejection means the account cannot receive; a payout that timed out
 * after processing came back (PAYOUT_RETURNED). Every failed pull is a failed collection.
 */
const OUTGOING_REASON: Readonly<Record<TransferFailureReason, OutgoingFailureReason>> = {
  INSUFFICIENT_FUNDS: 'LIMIT_EXCEEDED',
  ACCOUNT_CLOSED_OR_INVALID: 'ACCOUNT_INVALID',
  REJECTED_BY_BANK: 'ACCOUNT_CANNOT_RECEIVE',
  TIMED_OUT: 'PAYOUT_RETURNED',
};

export function apiFailureReason(type: TransactionType, cause: string): OutgoingFailureReason | IncomingFailureReason {
  if (type === 'INCOMING') return 'COLLECTION_FAILED';
  return OUTGOING_REASON[cause as TransferFailureReason] ?? 'ACCOUNT_CANNOT_RECEIVE';
}

/**
 * The Transaction resource exactly as the API returns it (GET, replies and webhooks alike).
 * The platform's own accounts have no customer: their transactions name the platform instead.
 */
export function toTransaction(entity: PaymentTransactionEntity, currency: CurrencyInfo, platformId: string): Transaction {
  const internal = { accountId: entity.internalAccountId, currency: entity.currencyCode };
  const onChain =
    entity.cryptoNetwork !== null && entity.onChainTransactionHash !== null ? { transactionHash: entity.onChainTransactionHash, network: entity.cryptoNetwork } : null;
  const external = { accountId: entity.externalAccountId, currency: entity.currencyCode, ...(onChain ? { onChainTransaction: onChain } : {}) };
  const money = { amount: amountToWire(entity.amount), currency: toCurrency(currency) };
  const outgoing = entity.type === 'OUTGOING';
  return {
    id: entity.id,
    type: entity.type,
    status: entity.status,
    direction: outgoing ? 'DEBIT' : 'CREDIT',
    customerId: entity.customerId ?? platformId,
    platformCustomerId: entity.platformCustomerId ?? entity.customerId ?? platformId,
    source: { sourceType: 'ACCOUNT', ...(outgoing ? internal : external) },
    destination: { destinationType: 'ACCOUNT', ...(outgoing ? external : internal) },
    sentAmount: money,
    receivedAmount: { ...money, currency: { ...money.currency } },
    ...(entity.paymentRail !== null ? { paymentRail: entity.paymentRail } : {}),
    ...(entity.railSelectionMode !== null ? { railSelectionMode: entity.railSelectionMode } : {}),
    ...(entity.remittanceInformation !== null ? { remittanceInformation: entity.remittanceInformation } : {}),
    ...(entity.purposeOfPayment !== null ? { purposeOfPayment: entity.purposeOfPayment } : {}),
    ...(entity.description !== null ? { description: entity.description } : {}),
    ...(entity.failureReason !== null ? { failureReason: apiFailureReason(entity.type, entity.failureReason) } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
    ...(entity.settledAt !== null ? { settledAt: entity.settledAt.toISOString() } : {}),
  };
}
