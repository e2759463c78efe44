import { amountToWire, Credit, Hold } from '@paykit/contracts';
import { HoldEntity } from './entities/hold.entity';
import { available, Balance } from './ledger-outcomes';

/** The Hold reply of the ledger messages. */
export function toHold(entity: HoldEntity, balance: Balance): Hold {
  return {
    id: entity.id,
    accountId: entity.accountId,
    status: entity.status,
    amount: amountToWire(entity.amount),
    capturedAmount: amountToWire(entity.capturedAmount),
    refundedAmount: amountToWire(entity.refundedAmount),
    currency: entity.currencyCode,
    ...(entity.reference !== null ? { reference: entity.reference } : {}),
    availableBalance: amountToWire(available(balance)),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

/** The Credit reply of `payments.credit.create`. */
export function toCredit(credit: { id: string; accountId: string; currency: string; amount: bigint; reference: string | null; createdAt: Date }, balance: Balance): Credit {
  return {
    id: credit.id,
    accountId: credit.accountId,
    amount: amountToWire(credit.amount),
    currency: credit.currency,
    ...(credit.reference !== null ? { reference: credit.reference } : {}),
    availableBalance: amountToWire(available(balance)),
    createdAt: credit.createdAt.toISOString(),
  };
}
