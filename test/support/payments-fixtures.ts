import { randomInt } from 'node:crypto';
import { InternalAccount } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { ApiClient } from './api-client';
import { eventually } from './test-stack';

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

/**
 * A customer of a US address (outside the EEA: no strong customer authentication) whose USD account
 * is funded with `amount`, and an MXN payee of theirs whose CLABE ends in `payeeSuffix` (the sandbox
 * quote outcome): what a payout needs.
 */
export async function fundedPayerWithMxnPayee(api: ApiClient, amount: number, payeeSuffix = '001'): Promise<{ customerId: string; accountId: string; payeeId: string }> {
  const customer = await api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Lovelace',
    birthDate: '1990-04-12',
    email: 'ada@example.com',
    nationality: 'GB',
    address: ADDRESS,
  });
  expect(customer.status).toBe(201);
  const accountId = await eventually(async () => {
    const listed = await api.get(`/customers/internal-accounts?customerId=${customer.body.id}&currency=USD&type=INTERNAL_FIAT`);
    return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
  }, 20_000);
  expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200);
  const payee = await api.post('/customers/external-accounts', { customerId: customer.body.id, ...mxnExternalAccountBody(payeeSuffix) });
  expect(payee.status).toBe(201);
  return { customerId: customer.body.id, accountId, payeeId: payee.body.id };
}
