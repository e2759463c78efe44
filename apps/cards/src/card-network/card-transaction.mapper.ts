import { amountToWire, CardTransaction } from '@paykit/contracts';
import { CardTransactionEntity } from './entities/card-transaction.entity';

/** The CardTransaction resource exactly as the API returns it (GET, replies and webhooks alike). */
export function toCardTransaction(entity: CardTransactionEntity): CardTransaction {
  return {
    id: entity.id,
    cardId: entity.cardId,
    customerId: entity.customerId,
    accountId: entity.accountId,
    issuerTransactionToken: entity.issuerTransactionToken,
    type: entity.type,
    direction: entity.direction,
    status: entity.status,
    merchant: entity.merchant,
    currency: entity.currency,
    authorizedAmount: amountToWire(entity.authorizedAmount),
    settledAmount: amountToWire(entity.settledAmount),
    refundedAmount: amountToWire(entity.refundedAmount),
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
