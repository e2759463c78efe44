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

/** An MXN external account's body whose CLABE ends in `suffix` (the sandbox quote outcome). */
export function mxnExternalAccountBody(suffix: string) {
  const clabeNumber = clabeEndingIn(suffix);
  return {
    currency: 'MXN',
    platformAccountId: `pa-${clabeNumber}`,
    accountInfo: {
      accountType: 'MXN_ACCOUNT',
      clabeNumber,
      bankName: 'BBVA Mexico',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Frida Kahlo' },
    },
  };
}

/** An 18-digit CLABE ending in `suffix` whose last digit is a valid control digit (the other digits are drawn until it is). */
function clabeEndingIn(suffix: string): string {
  const weights = [3, 7, 1];
  for (;;) {
    const body = `${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}${suffix.slice(0, 2)}`;
    const sum = [...body].reduce((total, digit, i) => total + ((Number(digit) * weights[i % 3]) % 10), 0);
    if ((10 - (sum % 10)) % 10 === Number(suffix[2])) return `${body}${suffix[2]}`;
  }
}
