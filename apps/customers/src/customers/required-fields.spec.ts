import { requiredFieldPaths } from './required-fields';

describe(requiredFieldPaths.name, () => {
  it.each([
    ['INDIVIDUAL', ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY', 'POSTAL_ADDRESS', 'EMAIL'], ['fullName', 'birthDate', 'nationality', 'address', 'email']],
    ['BUSINESS', ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY', 'POSTAL_ADDRESS', 'EMAIL'], ['businessInfo.legalName', 'address', 'email']],
    [
      'BUSINESS',
      ['REGISTRATION_NUMBER', 'TAX_ID', 'BUSINESS_TYPE', 'COMPANY_LEGAL_NAME'],
      ['businessInfo.registrationNumber', 'businessInfo.taxId', 'businessInfo.businessType', 'businessInfo.legalName'],
    ],
    ['INDIVIDUAL', ['REGISTRATION_NUMBER', 'ID_TYPE', 'ID_NUMBER', 'IDENTIFIER', 'TAX_ID'], ['idType', 'identifier']],
    ['INDIVIDUAL', ['COUNTRY_OF_RESIDENCE', 'PHONE_NUMBER'], ['address.country', 'phoneNumber']],
    ['INDIVIDUAL', ['USER_TYPE', 'ACCOUNT_IDENTIFIER', 'FI_LEGAL_ENTITY_NAME', 'FI_ADDRESS', 'PURPOSE_OF_PAYMENT', 'ULTIMATE_INSTITUTION_COUNTRY'], []],
  ] as const)('for %s customers, %j means %j', (customerType, names, paths) => {
    expect(requiredFieldPaths(customerType, names)).toEqual(paths);
  });
});
