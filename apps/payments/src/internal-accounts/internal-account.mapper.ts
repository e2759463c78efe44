import { amountToWire, InternalAccount, InternalAccountRecord } from '@paykit/contracts';
import { CurrencyInfo } from '../currencies/currencies.repository';
import { toCurrency } from '../currencies/currency-catalog';
import { InternalAccountWithBalance } from './entities/internal-account.entity';
import { fundingPaymentInstructions } from './funding-instructions';

/**
 * The InternalAccount resource exactly as the API returns it: `balance` is the available balance
 * (posted less pending holds), `totalBalance` everything posted, holds included.
 */
export function toInternalAccount(entity: InternalAccountWithBalance, currency: CurrencyInfo): InternalAccount {
  return {
    id: entity.id,
    ...(entity.customerId !== null ? { customerId: entity.customerId } : {}),
    type: entity.type,
    status: entity.status,
    balance: { amount: amountToWire(entity.posted - entity.held), currency: toCurrency(currency) },
    totalBalance: { amount: amountToWire(entity.posted), currency: toCurrency(currency) },
    fundingPaymentInstructions: fundingPaymentInstructions(entity),
    privateEnabled: entity.privateEnabled,
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

/** What other services get: the resource plus internal fields the gateway never returns. */
export function toInternalAccountRecord(entity: InternalAccountWithBalance, currency: CurrencyInfo): InternalAccountRecord {
  return {
    ...toInternalAccount(entity, currency),
    currencyCode: entity.currencyCode,
    ...(entity.type === 'EMBEDDED_WALLET' && entity.walletEmail ? { walletEmail: entity.walletEmail } : {}),
  };
}
