import { amountToWire, CardTransaction, Currency, Money } from '@paykit/contracts';
import { CardTransactionEntity } from './entities/card-transaction.entity';

/** The CardTransaction resource exactly as the API returns it (GET, replies and webhooks alike). */
export function toCardTransaction(entity: CardTransactionEntity): CardTransaction {
  return {
    type: 'CARD',
    id: entity.id,
    cardId: entity.cardId,
    customerId: entity.customerId,
    // Rows older than the column carry the default platform id (see the CardLimitsAndReveal migration).
    platformCustomerId: entity.platformCustomerId ?? entity.customerId.slice('Customer:'.length),
    accountId: entity.accountId,
    issuerTransactionToken: entity.issuerTransactionToken,
    operation: entity.type,
    direction: entity.direction,
    status: entity.status,
    merchant: entity.merchant,
    currency: entity.currency,
    authorizedAmount: money(entity.authorizedAmount, entity.currency),
    settledAmount: money(entity.settledAmount, entity.currency),
    refundedAmount: money(entity.refundedAmount, entity.currency),
    ...(entity.declineReason !== null ? { declineReason: entity.declineReason } : {}),
    ...(entity.expiryReason !== null ? { expiryReason: entity.expiryReason } : {}),
    ...(entity.exception !== null ? { exception: entity.exception } : {}),
    forcePosted: entity.forcePosted,
    authorizedAt: entity.authorizedAt.toISOString(),
    ...(entity.settledAt !== null ? { settledAt: entity.settledAt.toISOString() } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

function money(amount: bigint, currency: Currency): Money {
  return { amount: amountToWire(amount), currency: { ...currency } };
}
