import { Hold } from '@paykit/contracts';
import { toAmount } from './amounts';
import { HoldEntity } from './entities/hold.entity';
import { available, BalanceRow } from './ledger.repository';

/** The Hold reply of the ledger messages. */
export function toHold(entity: HoldEntity, balance: BalanceRow): Hold {
  return {
    id: entity.id,
    accountId: entity.accountId,
    status: entity.status,
    amount: toAmount(BigInt(entity.amount)),
    capturedAmount: toAmount(BigInt(entity.capturedAmount)),
    refundedAmount: toAmount(BigInt(entity.refundedAmount)),
    currency: entity.currencyCode,
    ...(entity.reference !== null ? { reference: entity.reference } : {}),
    availableBalance: toAmount(available(balance)),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}
