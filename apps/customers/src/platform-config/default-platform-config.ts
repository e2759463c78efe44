import { SupportedCurrency } from '@paykit/contracts';

const INDIVIDUAL_BASICS = ['fullName', 'birthDate', 'nationality', 'address'];

/**
 * Currencies a new platform supports, each with the customer fields its provider needs
 * before the customer may transact in it.
 */
export const DEFAULT_SUPPORTED_CURRENCIES: SupportedCurrency[] = [
  { currencyCode: 'USD', providerRequiredCustomerFields: [...INDIVIDUAL_BASICS, 'email'] },
  { currencyCode: 'USDC', providerRequiredCustomerFields: [...INDIVIDUAL_BASICS, 'email'] },
  { currencyCode: 'EUR', providerRequiredCustomerFields: [...INDIVIDUAL_BASICS] },
  { currencyCode: 'GBP', providerRequiredCustomerFields: [...INDIVIDUAL_BASICS] },
  { currencyCode: 'MXN', providerRequiredCustomerFields: ['fullName', 'birthDate'] },
  { currencyCode: 'BRL', providerRequiredCustomerFields: ['fullName', 'birthDate'] },
  { currencyCode: 'PHP', providerRequiredCustomerFields: ['fullName'] },
  { currencyCode: 'BTC', providerRequiredCustomerFields: ['fullName'] },
];

/** The UMA domain a platform gets until it configures its own. */
export function defaultUmaDomain(platformId: string): string {
  // The random tail of the platform's UUIDv7 (its head is a timestamp, shared by neighbours).
  const suffix = platformId.replace(/-/g, '').slice(-10).toLowerCase();
  return `p-${suffix}.uma.sandbox.paykit.dev`;
}
