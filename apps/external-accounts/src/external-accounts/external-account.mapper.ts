import { AccountInfo, AccountInfoWithRails, CORRIDORS, ExternalAccount, ExternalAccountWithRouting, PaymentRail } from '@paykit/contracts';
import { identifierLast3, primaryIdentifier } from './account-identity';
import { ExternalAccountEntity } from './entities/external-account.entity';

/** The ExternalAccount resource exactly as GET returns it (replies and webhook data alike). */
export function toExternalAccount(entity: ExternalAccountEntity): ExternalAccount {
  return {
    id: entity.id,
    ...(entity.customerId !== null ? { customerId: entity.customerId } : {}),
    status: entity.status,
    currency: entity.currency,
    ...(entity.platformAccountId !== null ? { platformAccountId: entity.platformAccountId } : {}),
    ...(entity.ownershipType !== null ? { ownershipType: entity.ownershipType } : {}),
    ...(entity.defaultUmaDepositAccount !== null ? { defaultUmaDepositAccount: entity.defaultUmaDepositAccount } : {}),
    accountInfo: withPaymentRails(entity.accountInfo),
    ...(entity.beneficiaryVerificationStatus !== null ? { beneficiaryVerificationStatus: entity.beneficiaryVerificationStatus } : {}),
    ...(entity.warnings?.length ? { warnings: entity.warnings } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

/** For other services only: adds what payments needs to route and simulate. */
export function toExternalAccountWithRouting(entity: ExternalAccountEntity): ExternalAccountWithRouting {
  return {
    ...toExternalAccount(entity),
    routing: {
      primaryIdentifierLast3: identifierLast3(primaryIdentifier(entity.accountInfo)),
      canReceivePayments: entity.status === 'ACTIVE',
      ownerType: entity.ownerType,
      ...(CORRIDORS[entity.accountInfo.accountType].network ? { network: CORRIDORS[entity.accountInfo.accountType].network } : {}),
    },
  };
}

/**
 * The rails a destination can be paid by: its corridor's, narrowed to the kind of destination
 * registered where a corridor has two (a bank account or a mobile-money phone; a UPI address or a
 * bank account for INR). Wallets have none (the reference gives them no paymentRails).
 */
export function paymentRailsOf(info: AccountInfo): PaymentRail[] {
  const rails = CORRIDORS[info.accountType].paymentRails;
  if (info.accountType === 'INR_ACCOUNT') return rails.filter((rail) => (typeof info.vpa === 'string' ? rail === 'UPI' : rail !== 'UPI'));
  if (rails.includes('BANK_TRANSFER') && rails.includes('MOBILE_MONEY')) {
    const bank = typeof info.accountNumber === 'string' || typeof info.iban === 'string';
    return rails.filter((rail) => rail !== (bank ? 'MOBILE_MONEY' : 'BANK_TRANSFER'));
  }
  return [...rails];
}

function withPaymentRails(info: AccountInfo): AccountInfoWithRails {
  const rails = paymentRailsOf(info);
  return rails.length > 0 ? { ...info, paymentRails: rails } : info;
}
