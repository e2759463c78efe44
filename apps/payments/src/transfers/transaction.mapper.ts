import { amountToWire, Transaction } from '@paykit/contracts';
import { CurrencyInfo } from '../currencies/currencies.repository';
import { toCurrency } from '../currencies/currency-catalog';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';

/** The Transaction resource exactly as the API returns it (GET, replies and webhooks alike). */
export function toTransaction(entity: PaymentTransactionEntity, currency: CurrencyInfo): Transaction {
  const internal = { accountId: entity.internalAccountId, currency: entity.currencyCode };
  const onChain =
    entity.cryptoNetwork !== null && entity.onChainTransactionHash !== null ? { transactionHash: entity.onChainTransactionHash, network: entity.cryptoNetwork } : null;
  const external = { accountId: entity.externalAccountId, currency: entity.currencyCode, ...(onChain ? { onChainTransaction: onChain } : {}) };
  const money = { amount: amountToWire(entity.amount), currency: toCurrency(currency) };
  return {
    id: entity.id,
    type: entity.type,
    status: entity.status,
    ...(entity.customerId !== null ? { customerId: entity.customerId } : {}),
    source: entity.type === 'OUTGOING' ? internal : external,
    destination: entity.type === 'OUTGOING' ? external : internal,
    sentAmount: money,
    receivedAmount: { ...money, currency: { ...money.currency } },
    ...(entity.description !== null ? { description: entity.description } : {}),
    ...(entity.failureReason !== null ? { failureReason: entity.failureReason } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
    ...(entity.settledAt !== null ? { settledAt: entity.settledAt.toISOString() } : {}),
  };
}
