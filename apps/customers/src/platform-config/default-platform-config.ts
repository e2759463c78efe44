import { CustomerInfoFieldName, PLATFORM_CURRENCY_CODES, PlatformCurrencyCode, SandboxProfile, SupportedCurrency } from '@paykit/contracts';

const BASICS: CustomerInfoFieldName[] = ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY', 'POSTAL_ADDRESS'];
const BOTH_DIRECTIONS: SupportedCurrency['enabledTransactionTypes'] = ['OUTGOING', 'INCOMING'];
const NAME_REQUIRED: SupportedCurrency['requiredCounterpartyFields'] = [{ name: 'FULL_NAME', mandatory: true }];

/**
 * The customer information each currency's provider needs before a customer may transact in it
 * (reference names; FULL_NAME means a business's legal name for businesses, BIRTH_DATE and
 * NATIONALITY apply to individuals only). Read-only for platforms.
 */
export const PROVIDER_REQUIRED_CUSTOMER_FIELDS: Record<PlatformCurrencyCode, CustomerInfoFieldName[]> = {
  USD: [...BASICS, 'EMAIL'],
  USDC: [...BASICS, 'EMAIL'],
  EUR: [...BASICS, 'REGISTRATION_NUMBER'],
  GBP: [...BASICS],
  MXN: ['FULL_NAME', 'BIRTH_DATE'],
  BRL: ['FULL_NAME', 'BIRTH_DATE'],
  PHP: ['FULL_NAME'],
  BTC: ['FULL_NAME'],
};

/**
 * What the hosted sandbox requires of a customer before it transacts, in every currency: a name.
 * Its guides mint "ready-to-transact approved customers" from any name without a suffix, and its
 * official sample pays out to a customer with no nationality (payout platforms need no
 * provider-required fields, `snippets/platform-configuration-non-uma.mdx`).
 */
export const HOSTED_PROVIDER_REQUIRED_CUSTOMER_FIELDS: CustomerInfoFieldName[] = ['FULL_NAME'];

/** The provider's required customer fields of a currency entry as a caller under `profile` sees and is held to them. */
export function providerRequiredCustomerFields(profile: SandboxProfile, currency: SupportedCurrency): CustomerInfoFieldName[] {
  return profile === 'HOSTED' ? [...HOSTED_PROVIDER_REQUIRED_CUSTOMER_FIELDS] : currency.providerRequiredCustomerFields;
}

/** Payment limits of a new platform, in minor units. */
const DEFAULT_LIMITS: Record<PlatformCurrencyCode, { minAmount: number; maxAmount: number }> = {
  USD: { minAmount: 100, maxAmount: 10_000_000 },
  USDC: { minAmount: 100, maxAmount: 10_000_000 },
  EUR: { minAmount: 100, maxAmount: 10_000_000 },
  GBP: { minAmount: 100, maxAmount: 10_000_000 },
  MXN: { minAmount: 2_000, maxAmount: 200_000_000 },
  BRL: { minAmount: 500, maxAmount: 50_000_000 },
  PHP: { minAmount: 5_000, maxAmount: 500_000_000 },
  BTC: { minAmount: 1_000, maxAmount: 100_000_000 },
};

/** Currencies a new platform supports; a platform may change its limits and counterparty fields (`PATCH /config`). */
export const DEFAULT_SUPPORTED_CURRENCIES: SupportedCurrency[] = PLATFORM_CURRENCY_CODES.map((currencyCode) => ({
  currencyCode,
  ...DEFAULT_LIMITS[currencyCode],
  requiredCounterpartyFields: NAME_REQUIRED,
  providerRequiredCustomerFields: PROVIDER_REQUIRED_CUSTOMER_FIELDS[currencyCode],
  enabledTransactionTypes: BOTH_DIRECTIONS,
}));

/** The UMA domain a platform gets until it configures its own. */
export function defaultUmaDomain(platformId: string): string {
  // The random tail of the platform's UUIDv7 (its head is a timestamp, shared by neighbours).
  const suffix = platformId.replace(/-/g, '').slice(-10).toLowerCase();
  return `p-${suffix}.uma.sandbox.paykit.dev`;
}
