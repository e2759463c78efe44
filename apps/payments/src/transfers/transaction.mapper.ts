import { amountToWire, Transaction } from '@paykit/contracts';
import { CurrencyInfo } from '../currencies/currencies.repository';
import { toCurrency } from '../currencies/currency-catalog';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';

/** The Transaction resource exactly as the API returns it (GET, replies and webhooks alike). */
export function toTransaction(entity: PaymentTransactionEntity, currency: CurrencyInfo, receivedCurrency: CurrencyInfo = currency): Transaction {
  const internal = { accountId: entity.internalAccountId, currency: entity.currencyCode };
  // A cross-currency payment's counterparty is paid in the received currency; a UMA counterparty has no account id, its address stands in.
  const external = { accountId: entity.externalAccountId ?? entity.counterpartyUmaAddress ?? '', currency: receivedCurrency.code };
  const money = { amount: amountToWire(entity.amount), currency: toCurrency(currency) };
  const received = { amount: amountToWire(entity.receivedAmount ?? entity.amount), currency: toCurrency(receivedCurrency) };
  return {
    id: entity.id,
    type: entity.type,
    status: entity.status,
    ...(entity.customerId !== null ? { customerId: entity.customerId } : {}),
    source: entity.type === 'OUTGOING' ? internal : external,
    destination: entity.type === 'OUTGOING' ? external : internal,
    sentAmount: money,
    receivedAmount: received,
    ...(entity.description !== null ? { description: entity.description } : {}),
    ...(entity.failureReason !== null ? { failureReason: entity.failureReason } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
    ...(entity.settledAt !== null ? { settledAt: entity.settledAt.toISOString() } : {}),
    ...(entity.quoteId !== null ? { quoteId: entity.quoteId } : {}),
    ...(entity.counterpartyInformation !== null ? { counterpartyInformation: entity.counterpartyInformation } : {}),
    ...(entity.receiptDeliveryConfirmedAt !== null ? { receiptDeliveryConfirmedAt: entity.receiptDeliveryConfirmedAt.toISOString() } : {}),
  };
}
