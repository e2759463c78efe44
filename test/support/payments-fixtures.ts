import { randomInt } from 'node:crypto';
import { ServiceError } from '@paykit/errors';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

/** A USD external account's body whose account number ends in `suffix` (the sandbox transfer outcome). */
export function usdExternalAccountBody(suffix: string) {
  const accountNumber = `${randomInt(100_000, 999_999)}${randomInt(100, 999)}${suffix}`;
  return {
    currency: 'USD',
    platformAccountId: `pa-${accountNumber}`,
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber,
      routingNumber: '021000021',
      bankAccountType: 'CHECKING',
      bankName: 'JPMorgan Chase Bank',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', address: ADDRESS },
    },
  };
}

/** The ServiceError a transport request was refused with; a request that succeeds fails the test. */
export async function refusalOf(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}
