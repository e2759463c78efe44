import { ApiClient } from '../support/api-client';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';

/**
 * Clients of the first and of today's published version of the API document (the public
 * repository's `openapi.yaml` at its first commit of 2025-10-13, 7930b5d8, and at its newest,
 * cf2510ed of 2026-08-21), each sending the bodies its own schemas and examples shape, with the
 * reference's neutral names: customer, external accounts in USD, MXN, EUR, BRL and INR, sandbox
 * funding, quote, execution, then the transaction listed and read until it completes.
 *
 * Only the request bodies are fixtures here (not the documents). The platform runs the hosted
 * sandbox profile, which both versions' guides describe: a customer without a suffix is approved
 * at creation, so neither client needs a verification call its version may not have.
 */

const berlin = { line1: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117', country: 'DE' };
const beneficiaryAddress = { line1: '123 Main Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' };

/** The request bodies of one version, as that version's schemas and examples shape them. */
interface VersionClient {
  customer: Record<string, unknown>;
  /** accountInfo (and any sibling fields) per currency; `customerId` and `currency` are added. */
  accounts: Record<'USD' | 'MXN' | 'EUR' | 'BRL' | 'INR', Record<string, unknown>>;
  quote: (sourceAccountId: string, destinationAccountId: string) => Record<string, unknown>;
  /** The execute call's body: the first version declares none. */
  executeBody?: Record<string, unknown>;
}

/**
 * 2025-10-13 (7930b5d8): account types named by scheme (`US_ACCOUNT`, `CLABE`, `IBAN`, `PIX`,
 * `UPI`), `accountCategory` for checking or savings, `bankName` required on CLABE and IBAN, an
 * individual beneficiary requiring `fullName`, `birthDate` and `nationality` (no
 * `beneficiaryType` required, no `countryOfResidence`, no `taxId` on PIX), quote source and
 * destination without a type, each with its `currency`, and an execute call without a body.
 */
const FIRST: VersionClient = {
  // The request example `individualCustomerWithoutUmaAddress`.
  customer: {
    platformCustomerId: '7b3c5a89d2f1e0',
    customerType: 'INDIVIDUAL',
    fullName: 'John Smith',
    birthDate: '1985-06-10',
    address: { line1: '456 Oak Avenue', city: 'Portland', state: 'OR', postalCode: '97201', country: 'US' },
  },
  accounts: {
    // The request example `usBankAccount` (its accountInfo.platformAccountId is no property of the
    // schema, but the example sends it).
    USD: {
      accountInfo: {
        accountType: 'US_ACCOUNT',
        accountNumber: '12345678901',
        routingNumber: '123456789',
        accountCategory: 'CHECKING',
        bankName: 'Chase Bank',
        platformAccountId: 'ext_acc_123456',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe', birthDate: '1990-01-15', nationality: 'US', address: beneficiaryAddress },
      },
    },
    MXN: {
      accountInfo: {
        accountType: 'CLABE',
        clabeNumber: '014027000000007001',
        bankName: 'BBVA Mexico',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Carlos Garcia', birthDate: '1988-05-22', nationality: 'MX' },
      },
    },
    EUR: {
      accountInfo: {
        accountType: 'IBAN',
        iban: 'DE89370400440532013000',
        swiftBic: 'DEUTDEFF',
        bankName: 'Deutsche Bank',
        // SPEC.md requires an address of an individual EUR beneficiary (the schema has it, optional).
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Hans Weber', birthDate: '1979-02-11', nationality: 'DE', address: berlin },
      },
    },
    BRL: {
      accountInfo: {
        accountType: 'PIX',
        pixKey: '55119876543210',
        pixKeyType: 'PHONE',
        bankName: 'Nubank',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ana Oliveira', birthDate: '1992-11-03', nationality: 'BR' },
      },
    },
    INR: {
      accountInfo: {
        accountType: 'UPI',
        vpa: 'somecustomers@okbank',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Priya Sharma', birthDate: '1991-07-30', nationality: 'IN' },
      },
    },
  },
  // The request example `accountToAccount`.
  quote: (source, destination) => ({
    source: { accountId: source, currency: 'USD' },
    destination: { accountId: destination, currency: 'MXN' },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10000,
    description: 'Transfer between accounts, either internal or external.',
  }),
};

/**
 * Today (cf2510ed): account types named by currency, `bankAccountType`, `platformAccountId`
 * beside accountInfo, a required beneficiary (EUR's with `countryOfResidence`, BRL's account with
 * the holder's `taxId`), typed quote source and destination, an execute call with an empty body.
 */
const TODAY: VersionClient = {
  // The request example `individualCustomer`.
  customer: {
    customerType: 'INDIVIDUAL',
    platformCustomerId: 'ind-9f84e0c2',
    region: 'US',
    currencies: ['USD', 'USDC'],
    fullName: 'Jane Smith',
    birthDate: '1990-01-15',
    nationality: 'US',
    email: 'jane.smith@example.com',
    phoneNumber: '+14155551234',
  },
  accounts: {
    // The request example `usBankAccount`.
    USD: {
      platformAccountId: 'ext_acc_123456',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '12345678901',
        routingNumber: '123456789',
        bankAccountType: 'CHECKING',
        bankName: 'Chase Bank',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe', birthDate: '1990-01-15', nationality: 'US', address: beneficiaryAddress },
      },
    },
    MXN: {
      accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '014027000000007001', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Carlos Garcia' } },
    },
    EUR: {
      accountInfo: {
        accountType: 'EUR_ACCOUNT',
        iban: 'DE89370400440532013000',
        swiftCode: 'DEUTDEFF',
        // SPEC.md requires an address of an individual EUR beneficiary (the schema has it, optional).
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Hans Weber', countryOfResidence: 'DE', address: berlin },
      },
    },
    BRL: {
      accountInfo: {
        accountType: 'BRL_ACCOUNT',
        pixKey: '55119876543210',
        pixKeyType: 'PHONE',
        taxId: '12345678909',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ana Oliveira' },
      },
    },
    INR: {
      accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'user@upi', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Priya Sharma' } },
    },
  },
  // The request example `accountToAccount`.
  quote: (source, destination) => ({
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: destination },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10000,
    description: 'Transfer between accounts, either internal or external.',
  }),
  executeBody: {},
};

const CURRENCIES = ['USD', 'MXN', 'EUR', 'BRL', 'INR'] as const;

describe("Clients of the first and of today's published version of the API document", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack();
  });

  afterAll(async () => {
    await t?.stop();
  });

  describe.each([
    ['2025-10-13 (7930b5d8, the first of that day)', FIRST],
    ['2026-08-21 (cf2510ed, today)', TODAY],
  ])('a client of %s', (_version, client) => {
    let api: ApiClient;

    beforeAll(async () => {
      // Each version's client on a platform of its own, set up as the hosted sandbox.
      api = (await t.newPlatform()).api;
      expect((await api.patch('/config', { sandboxProfile: 'HOSTED' })).status).toBe(200);
    });

    it('creates a customer and external accounts, funds, quotes, executes, and sees the transaction complete', async () => {
      const customer = await api.post('/customers', client.customer);
      expect([customer.status, customer.body.details]).toEqual([201, undefined]);
      const customerId: string = customer.body.id;

      const accounts: Partial<Record<(typeof CURRENCIES)[number], { id: string; accountInfo: Record<string, unknown>; warnings?: Array<{ field: string }> }>> = {};
      for (const currency of CURRENCIES) {
        const created = await api.post('/customers/external-accounts', { customerId, currency, ...client.accounts[currency] });
        expect([currency, created.status, created.body.details]).toEqual([currency, 201, undefined]);
        expect(created.body).toMatchObject({ currency, customerId, accountInfo: { accountType: `${currency}_ACCOUNT` } });
        accounts[currency] = created.body;
      }
      // The first version's accountCategory is today's bankAccountType; its PIX account had no
      // taxId, which today's asks for: accepted, with a warning naming it.
      expect(accounts.USD!.accountInfo).toMatchObject({ bankAccountType: 'CHECKING' });
      const brlWarnings = (accounts.BRL!.warnings ?? []).map((warning) => warning.field);
      expect(brlWarnings.includes('accountInfo.taxId')).toBe(client === FIRST);

      const internalAccountId = await eventually(async () => {
        const listed = await api.get(`/customers/internal-accounts?customerId=${customerId}&currency=USD`);
        expect(listed.status).toBe(200);
        return (listed.body.data as Array<{ id: string }> | undefined)?.[0]?.id;
      });
      const funded = await api.post(`/sandbox/internal-accounts/${internalAccountId}/fund`, { amount: 100000 });
      expect([funded.status, funded.body.details]).toEqual([200, undefined]);

      const quote = await api.post('/quotes', client.quote(internalAccountId, accounts.MXN!.id));
      expect([quote.status, quote.body.details]).toEqual([201, undefined]);
      const executed = await api.post(`/quotes/${quote.body.id}/execute`, client.executeBody);
      expect([executed.status, executed.body.details]).toEqual([200, undefined]);
      const transactionId: string = executed.body.transactionId ?? quote.body.transactionId;

      const completed = await eventually(async () => {
        await advanceClock(api, 60);
        const fetched = await api.get(`/transactions/${transactionId}`);
        expect(fetched.status).toBe(200);
        return ['COMPLETED', 'FAILED'].includes(fetched.body.status) ? fetched.body : undefined;
      }, 20_000);
      expect(completed).toMatchObject({ id: transactionId, status: 'COMPLETED', type: 'OUTGOING', customerId, quoteId: quote.body.id });

      const listed = await api.get(`/transactions?customerId=${customerId}&type=OUTGOING`);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([expect.objectContaining({ id: transactionId, status: 'COMPLETED' })]);
    });
  });

  it("refuses the first version's inline external account as a quote destination in one clear 400, creating nothing", async () => {
    const api = (await t.newPlatform()).api;
    const customer = await api.post('/customers', FIRST.customer);
    expect(customer.status).toBe(201);
    const customerId: string = customer.body.id;
    // The first version's request example `realTimeFundingToSparkWallet`, with a bank account of that version.
    const quote = await api.post('/quotes', {
      source: { customerId, currency: 'USD' },
      destination: { externalAccountDetails: { customerId, currency: 'MXN', ...FIRST.accounts.MXN } },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 10000,
      immediatelyExecute: true,
      description: 'One-off payout',
    });
    expect([quote.status, quote.body.code]).toEqual([400, 'INVALID_INPUT']);
    expect(quote.body.details.errors).toEqual([
      { field: 'destination.externalAccountDetails', message: expect.stringMatching(/POST \/customers\/external-accounts.*destinationType.*ACCOUNT.*accountId/) },
    ]);
    expect((await api.get(`/customers/external-accounts?customerId=${customerId}`)).body.data).toEqual([]);
    expect((await api.get(`/transactions?customerId=${customerId}`)).body.data).toEqual([]);
  });
});
