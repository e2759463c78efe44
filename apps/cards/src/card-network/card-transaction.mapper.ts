import { CardTransaction } from '@paykit/contracts';
import { CardTransactionEntity } from './entities/card-transaction.entity';

/** Minor units leave the service as JSON integers; the column is bigint and amounts are bounded by int64 validation. */
function minor(value: string): number {
  const amount = BigInt(value);
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`Amount ${value} exceeds the JSON-safe range`);
  return Number(amount);
}

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
    authorizedAmount: minor(entity.authorizedAmount),
    settledAmount: minor(entity.settledAmount),
    refundedAmount: minor(entity.refundedAmount),
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
