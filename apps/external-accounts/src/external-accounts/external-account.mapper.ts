import { ExternalAccount, ExternalAccountWithRouting } from '@paykit/contracts';
import { identifierLast3, maskAccountInfo, primaryIdentifier } from './account-identity';
import { ExternalAccountEntity } from './entities/external-account.entity';

/** The ExternalAccount resource exactly as GET returns it (replies and webhook data alike). */
export function toExternalAccount(entity: ExternalAccountEntity): ExternalAccount {
  return {
    id: entity.id,
    ...(entity.customerId !== null ? { customerId: entity.customerId } : {}),
    status: entity.status,
    currency: entity.currency,
    platformAccountId: entity.platformAccountId,
    accountInfo: entity.accountInfo,
    ...(entity.beneficiaryVerificationStatus !== null ? { beneficiaryVerificationStatus: entity.beneficiaryVerificationStatus } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

/** List entries: the same resource with account numbers, IBANs and CLABEs masked to their last 4. */
export function toListedExternalAccount(entity: ExternalAccountEntity): ExternalAccount {
  return { ...toExternalAccount(entity), accountInfo: maskAccountInfo(entity.accountInfo) };
}

/** For other services only: adds what payments needs to route and simulate. */
export function toExternalAccountWithRouting(entity: ExternalAccountEntity): ExternalAccountWithRouting {
  return {
    ...toExternalAccount(entity),
    routing: {
      primaryIdentifierLast3: identifierLast3(primaryIdentifier(entity.accountInfo)),
      canReceivePayments: entity.status === 'ACTIVE',
      ownerType: entity.ownerType,
    },
  };
}
