import { Customer } from '@paykit/contracts';
import { CustomerEntity } from './entities/customer.entity';

/** The optional fields of the resource, each present only when stored (the identifier is write-only and never listed). */
const OPTIONAL_FIELDS = [
  'fullName',
  'birthDate',
  'nationality',
  'email',
  'phoneNumber',
  'address',
  'businessInfo',
  'region',
  'currencies',
  'endUserTermsConsent',
  'idType',
  'countryOfIssuance',
  'sourceOfFundsCategories',
  'sourceOfFundsOtherDescription',
  'sourceOfWealthCategories',
  'sourceOfWealthOtherDescription',
  'purposeOfAccount',
  'purposeOfAccountOtherDescription',
  'expectedMonthlyTransactionCount',
  'expectedMonthlyTransactionVolume',
  'annualIncomeRange',
  'netWorthRange',
  'pepStatus',
  'kycStatus',
  'kybStatus',
] as const satisfies ReadonlyArray<keyof CustomerEntity & keyof Customer>;

/** The Customer resource exactly as the API returns it (GET, replies and webhooks alike). */
export function toCustomer(entity: CustomerEntity): Customer {
  const contactVerification = entity.contactVerification && Object.keys(entity.contactVerification).length > 0 ? entity.contactVerification : null;
  const optional: Partial<Customer> = {};
  for (const field of OPTIONAL_FIELDS) {
    const value = entity[field];
    if (value !== null && value !== undefined) (optional as Record<string, unknown>)[field] = value;
  }
  return {
    id: entity.id,
    platformCustomerId: entity.platformCustomerId,
    customerType: entity.customerType,
    umaAddress: entity.umaAddress,
    ...optional,
    ...(contactVerification ? { contactVerification } : {}),
    isDeleted: entity.deletedAt !== null,
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}
