import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { API_VERSION } from '@paykit/contracts';
import { createRootLogger } from '@paykit/runtime';
import { SERVICE_APPS } from '../../apps/embedded/src/stack';
import { CREDENTIAL_PATH_PARAMETERS, CREDENTIAL_QUERY_PARAMETERS } from '../../apps/gateway/src/http/loggable-url';
import { SoftwareAuthenticator } from '../../libs/testing/src/software-authenticator';
import { rawRequest } from '../support/raw-http';
import { RP_ID, RP_ORIGIN, WalletAuthClient } from '../support/wallet-auth-client';
import { startTestStack, TestStack } from '../support/test-stack';

// Every line the stack logs while this file runs (debug level: everything), and everything
// written to the console, to prove no secret or personal data reaches either.
let logged = '';
createRootLogger({
  level: 'debug',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  }),
});

const IBAN = 'DE89370400440532013000';
const EMAIL = 'ada.redaction@example.com';
const PHONE = '+442071234567';
const BIRTH_DATE = '1815-12-10';
const ACCOUNT_NUMBER = '001234567890';

interface LogLine {
  level: string;
  service?: string;
  component?: string;
  msg?: string;
  parameterCount?: number;
}

describe('Logs: secrets and personal data never logged, by any service or database driver', () => {
  let t: TestStack;
  const consoleWrites: string[] = [];
  const spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      spies.push(jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void consoleWrites.push(args.map(String).join(' '))));
    }
    // The passkey origin of the test client, for the session-key case.
    t = await startTestStack({ env: { LOG_LEVEL: 'debug', WALLET_AUTH_RP_ID: RP_ID, WALLET_AUTH_RP_ORIGINS: RP_ORIGIN } });
  });

  afterAll(async () => {
    await t?.stop();
    for (const spy of spies) spy.mockRestore();
  });

  it('logs a failing statement of every service (PostgreSQL or PGlite) without its parameters or the values the database echoes', async () => {
    const dataSources: Array<[string, DataSource]> = [
      ['gateway', t.stack.http.get(DataSource)],
      ...SERVICE_APPS.map(([name]) => [name, t.stack.services.get(name)!.get(DataSource)] as [string, DataSource]),
    ];
    for (const [, dataSource] of dataSources) {
      // The database echoes a value it cannot convert in its message: the redaction list must
      // catch it there too, not only in the parameters.
      await expect(dataSource.query('SELECT $1::integer AS email, $2::uuid AS iban', [EMAIL, IBAN])).rejects.toThrow(/invalid input syntax/);
      await expect(dataSource.query('INSERT INTO redaction_probe_missing (iban, phone) VALUES ($1, $2)', [IBAN, PHONE])).rejects.toThrow(/does not exist/);
    }
    const failures = logged
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.component === 'database' && line.msg?.startsWith('query failed'));
    for (const [service] of dataSources) {
      const own = failures.filter((line) => line.service === service);
      expect({ service, lines: own.length }).toEqual({ service, lines: 2 });
      expect(own.every((line) => line.level === 'warn' && line.parameterCount === 2)).toBe(true);
      // The database did echo the e-mail address in its message; the line carries it redacted.
      expect(own.some((line) => line.msg?.includes('invalid input syntax') && line.msg.includes('[redacted]'))).toBe(true);
    }
  });

  it('answers requests that carry personal data, and a duplicate that fails a unique index, without logging the data', async () => {
    const customer = await t.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'log-redaction-1',
      fullName: 'Ada Lovelace',
      birthDate: BIRTH_DATE,
      email: EMAIL,
      phoneNumber: PHONE,
      nationality: 'GB',
      address: { line1: '1 Main St', city: 'London', postalCode: 'N1 7GU', country: 'GB' },
    });
    expect(customer.status).toBe(201);
    const account = (accountInfo: Record<string, unknown>) =>
      t.api.post('/customers/external-accounts', {
        customerId: customer.body.id,
        currency: accountInfo.accountType === 'EUR_ACCOUNT' ? 'EUR' : 'PHP',
        accountInfo: {
          ...accountInfo,
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', address: { line1: '1 Main St', city: 'Berlin', postalCode: '10115', country: 'DE' } },
        },
      });
    const eur = { accountType: 'EUR_ACCOUNT', iban: IBAN, swiftCode: 'COBADEFFXXX', bankName: 'Commerzbank' };
    expect((await account(eur)).status).toBe(201);
    // The same account again: the product's answer to a duplicate, whatever statement it took.
    expect((await account(eur)).status).toBeLessThan(500);
    expect((await account({ accountType: 'PHP_ACCOUNT', bankName: 'BDO Unibank', accountNumber: ACCOUNT_NUMBER })).status).toBe(201);
    // A wrong secret and the right one: neither is logged.
    expect((await t.api.get('/customers', { auth: { tokenId: t.credentials.tokenId, secret: 'wrong-secret-value-1234567890' } })).status).toBe(401);
    expect((await t.api.get(`/customers/${customer.body.id}`)).status).toBe(200);
  });

  it('never logs the credentials it hands out: a token secret, a device code and the access token it redeems, a session key, an account number filter', async () => {
    const made: Array<[string, string]> = [];
    const token = await t.api.post('/tokens', { name: 'log-redaction', permissions: ['VIEW'] });
    expect(token.status).toBe(201);
    made.push(['token secret', token.body.clientSecret]);
    expect((await t.api.withCredentials({ tokenId: token.body.clientId, secret: token.body.clientSecret }).get('/customers')).status).toBe(200);

    const wallets = new WalletAuthClient(t.api);
    const wallet = await wallets.createWallet('log-redaction');
    const otp = await wallets.otpLogin(wallet.emailCredentialId);
    // A passkey login answers the session's signing key sealed to the client's key.
    const authenticator = new SoftwareAuthenticator();
    const added = await wallets.addPasskey(wallet.accountId, authenticator, otp.key);
    expect(added.status).toBe(201);
    const session = await wallets.passkeyLogin(added.body.id, authenticator);
    made.push(['sealed session key', session.body.encryptedSessionSigningKey], ['session private key', session.key.privateKey]);

    const agent = await t.api.post('/agents', {
      name: 'Log bot',
      customerId: wallet.customerId,
      policy: {
        permissions: ['VIEW_TRANSACTIONS'],
        defaultExecutionMode: 'AUTO',
        spendingLimits: { currency: 'USD', perTransactionLimit: 100, dailyLimit: 100, dailyTransactionLimit: 1, monthlyLimit: 100 },
      },
    });
    expect(agent.status).toBe(201);
    const code = agent.body.deviceCode.code;
    expect((await t.api.get(`/agents/device-codes/${code}/status`)).status).toBe(200);
    const redeemed = await t.api.post(`/agents/device-codes/${code}/redeem`, undefined, { auth: null });
    expect(redeemed.status).toBe(200);
    made.push(['device code', code], ['agent access token', redeemed.body.accessToken]);
    expect((await t.api.get('/agents/me', { auth: null, headers: { authorization: `Bearer ${redeemed.body.accessToken}` } })).status).toBe(200);

    expect((await t.api.get(`/transactions?accountIdentifier=${ACCOUNT_NUMBER}&senderAccountIdentifier=${IBAN}`)).status).toBe(200);
    const output = logged + consoleWrites.join('\n');
    expect(made.filter(([, value]) => typeof value !== 'string' || value.length < 8).map(([what]) => what)).toEqual([]);
    expect(made.filter(([, value]) => output.includes(value)).map(([what]) => what)).toEqual([]);
    expect([ACCOUNT_NUMBER, IBAN].filter((value) => output.includes(value))).toEqual([]);
  });

  it('masks every credential path segment and query value of the one list, over every operation of the served document that has one', async () => {
    const document = (await (await fetch(`${t.stack.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>>;
    };
    const templates = Object.keys(document.paths);
    // A parameter named like a credential is on the list, so a new one cannot reach the logs unlisted.
    const credentialLike = templates.filter((template) => /\{([^}]*code|[^}]*secret|token)\}/i.test(template));
    for (const template of credentialLike)
      expect({ template, listed: CREDENTIAL_PATH_PARAMETERS.some((prefix) => template.startsWith(prefix)) }).toEqual({ template, listed: true });
    const sent: string[] = [];
    const secretValue = () => `credential${sent.length}x${randomUUID().replace(/-/g, '')}`;
    const covered = new Set<string>();
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const inPath = CREDENTIAL_PATH_PARAMETERS.find((prefix) => template.startsWith(prefix));
        const inQuery = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query' && CREDENTIAL_QUERY_PARAMETERS.includes(parameter.name));
        if (!inPath && inQuery.length === 0) continue;
        const values: string[] = [];
        const path = template.replace(/\{[^}]+\}/g, () => {
          const value = secretValue();
          values.push(value);
          return value;
        });
        const query = inQuery.map((parameter) => {
          const value = secretValue();
          values.push(value);
          return `${parameter.name}=${value}`;
        });
        sent.push(...values);
        const response = await rawRequest(t.stack.url, {
          method: method.toUpperCase(),
          path: `/${API_VERSION}${path}${query.length ? `?${query.join('&')}` : ''}`,
          auth: t.credentials,
          ...(operation.requestBody ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
        });
        expect(response.status).toBeLessThan(500);
        if (inPath) covered.add(inPath);
        for (const parameter of inQuery) covered.add(parameter.name);
      }
    }
    // The pages outside the document: their token is the whole credential too.
    for (const template of CREDENTIAL_PATH_PARAMETERS.filter((prefix) => !templates.some((served) => served.startsWith(prefix)))) {
      const value = secretValue();
      sent.push(value);
      expect((await rawRequest(t.stack.url, { method: 'GET', path: template.replace(/\{[^}]+\}/, value) })).status).toBeLessThan(500);
      covered.add(template);
    }
    // Every entry of the list was exercised (device codes, invitations, pages, account filters).
    expect([...covered].sort()).toEqual([...CREDENTIAL_PATH_PARAMETERS, ...CREDENTIAL_QUERY_PARAMETERS].sort());
    const requestLines = logged.split('\n').filter((line) => line.includes('"msg":"request"'));
    expect(requestLines.length).toBeGreaterThan(sent.length / 2);
    expect(sent.filter((value) => logged.includes(value) || consoleWrites.some((write) => write.includes(value)))).toEqual([]);
  });

  it('wrote every service into the log and no secret or personal data into the log or the console', () => {
    const services = new Set(
      logged
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as LogLine).service),
    );
    for (const name of ['gateway', ...SERVICE_APPS.map(([service]) => service)]) expect(services).toContain(name);
    const output = logged + consoleWrites.join('\n');
    for (const value of [IBAN, EMAIL, PHONE, BIRTH_DATE, ACCOUNT_NUMBER, t.credentials.secret, 'wrong-secret-value-1234567890']) {
      expect({ value, found: output.includes(value) }).toEqual({ value, found: false });
    }
    expect(output).not.toMatch(/PARAMETERS:/);
  });
});
