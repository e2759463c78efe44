import { CustomerInfoFieldName, CustomerType } from '@paykit/contracts';

/**
 * Where each piece of customer information a provider may require lives on a customer, by type
 * (dot paths into the Customer resource). Names that describe a counterparty institution or a
 * payment rather than the customer (ACCOUNT_IDENTIFIER, FI_*, PURPOSE_OF_PAYMENT,
 * ULTIMATE_INSTITUTION_COUNTRY) have no customer field and are never missing here.
 */
const FIELD_PATHS: Record<CustomerInfoFieldName, Partial<Record<CustomerType, string>>> = {
  FULL_NAME: { INDIVIDUAL: 'fullName', BUSINESS: 'businessInfo.legalName' },
  COMPANY_LEGAL_NAME: { BUSINESS: 'businessInfo.legalName' },
  BIRTH_DATE: { INDIVIDUAL: 'birthDate' },
  NATIONALITY: { INDIVIDUAL: 'nationality' },
  PHONE_NUMBER: { INDIVIDUAL: 'phoneNumber', BUSINESS: 'phoneNumber' },
  EMAIL: { INDIVIDUAL: 'email', BUSINESS: 'email' },
  POSTAL_ADDRESS: { INDIVIDUAL: 'address', BUSINESS: 'address' },
  COUNTRY_OF_RESIDENCE: { INDIVIDUAL: 'address.country', BUSINESS: 'address.country' },
  TAX_ID: { INDIVIDUAL: 'identifier', BUSINESS: 'businessInfo.taxId' },
  REGISTRATION_NUMBER: { BUSINESS: 'businessInfo.registrationNumber' },
  BUSINESS_TYPE: { BUSINESS: 'businessInfo.businessType' },
  ID_TYPE: { INDIVIDUAL: 'idType' },
  ID_NUMBER: { INDIVIDUAL: 'identifier' },
  IDENTIFIER: { INDIVIDUAL: 'identifier' },
  USER_TYPE: {},
  ACCOUNT_IDENTIFIER: {},
  FI_LEGAL_ENTITY_NAME: {},
  FI_ADDRESS: {},
  PURPOSE_OF_PAYMENT: {},
  ULTIMATE_INSTITUTION_COUNTRY: {},
};

/** The customer fields (dot paths) the given requirement names mean for a customer of this type. */
export function requiredFieldPaths(customerType: CustomerType, names: readonly CustomerInfoFieldName[]): string[] {
  const paths = names.map((name) => FIELD_PATHS[name]?.[customerType]).filter((path): path is string => path !== undefined);
  return [...new Set(paths)];
}
