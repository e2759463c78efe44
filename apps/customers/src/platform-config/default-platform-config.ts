import { SupportedCurrency } from '@paykit/contracts';

const INDIVIDUAL_BASICS = ['fullName', 'birthDate', 'nationality', 'address'];
const BUSINESS_BASICS = ['businessInfo.legalName', 'address'];

/**
 * Currencies a new platform supports, each with the customer fields its provider needs
 * before the customer may transact in it. `fullName`, `birthDate` and `nationality` apply to
 * individuals, `businessInfo.*` to businesses, the rest to both.
 */
export const DEFAULT_SUPPORTED_CURRENCIES: SupportedCurrency[] = [
  { currencyCode: 'USD', providerRequiredCustomerFields: [...INDIVIDUAL_BASICS, 'email', ...BUSINESS_BASICS] },
  { currencyCode: 'USDC', providerRequiredCustomerFields: [...INDIVIDUAL_BASICS, 'email', ...BUSINESS_BASICS] },
  { currencyCode: 'EUR', providerRequiredCustomerFields: [...INDIVIDUAL_BASICS, ...BUSINESS_BASICS, 'businessInfo.registrationNumber'] },
  { currencyCode: 'GBP', providerRequiredCustomerFields: [...INDIVIDUAL_BASICS, ...BUSINESS_BASICS] },
  { currencyCode: 'MXN', providerRequiredCustomerFields: ['fullName', 'birthDate', 'businessInfo.legalName'] },
  { currencyCode: 'BRL', providerRequiredCustomerFields: ['fullName', 'birthDate', 'businessInfo.legalName'] },
  { currencyCode: 'PHP', providerRequiredCustomerFields: ['fullName', 'businessInfo.legalName'] },
  { currencyCode: 'BTC', providerRequiredCustomerFields: ['fullName', 'businessInfo.legalName'] },
];

/** The UMA domain a platform gets until it configures its own. */
export function defaultUmaDomain(platformId: string): string {
  // The random tail of the platform's UUIDv7 (its head is a timestamp, shared by neighbours).
  const suffix = platformId.replace(/-/g, '').slice(-10).toLowerCase();
  return `p-${suffix}.uma.sandbox.paykit.dev`;
}
