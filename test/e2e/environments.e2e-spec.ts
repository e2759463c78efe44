import { CallerContext, CUSTOMERS_SUBJECTS, environmentTenantId, InternalAccount } from '@paykit/contracts';
import { CredentialsService } from '../../apps/gateway/src/auth/credentials.service';
import { ApiClient } from '../support/api-client';
import { usdExternalAccountBody } from '../support/payments-fixtures';
import { eventually, startTestStack, TestStack } from '../support/test-stack';

/**
 * Sandbox and production isolated (DESIGN "Tenancy and environments"): a platform's sandbox and
 * production tokens see disjoint data, so sandbox-minted money never reaches a production path;
 * and a production deployment applies no sandbox rule, whatever the token. Both modes.
 */

/** A production token of `platformId`, issued as the platform CLI issues one. */
async function productionClient(t: TestStack, platformId: string): Promise<ApiClient> {
  const issued = await t.stack.http.get(CredentialsService).issueToken(platformId, 'production', 'environments test');
  return t.api.withCredentials({ tokenId: issued.tokenId, secret: issued.secret });
}

/** Regulated platforms' customers start APPROVED (ready for payouts and cards at once). */
async function makeRegulated(t: TestStack, platformId: string, environment: 'sandbox' | 'production'): Promise<void> {
  const ctx: CallerContext = { platformId: environmentTenantId(platformId, environment), environment, requestId: 'environments-test' };
  await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
}

async function accountOf(api: ApiClient, customerId: string, currency: string): Promise<string> {
  return eventually(async () => {
    const listed = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=${currency}&limit=100`);
    return (listed.body?.data as InternalAccount[] | undefined)?.find((account) => account.balance.currency.code === currency)?.id;
  });
}

const customerBody = (fullName: string) => ({
  customerType: 'INDIVIDUAL',
  fullName,
  email: `${Math.random().toString(36).slice(2, 10)}@example.com`,
  birthDate: '1990-04-12',
  nationality: 'GB',
  address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
});

describe('Environments: sandbox and production of one platform are disjoint (sandbox deployment)', () => {
  let t: TestStack;
  let sandbox: ApiClient;
  let production: ApiClient;
  let customerId: string;
  let accountId: string;
  let externalId: string;

  beforeAll(async () => {
    t = await startTestStack();
    const platform = await t.newPlatform('sandbox');
    sandbox = platform.api;
    production = await productionClient(t, platform.platformId);
    await makeRegulated(t, platform.platformId, 'sandbox');
    // Sandbox money: a customer's account funded by the sandbox simulator, and a payout destination.
    const customer = await sandbox.post('/customers', customerBody('Ada Lovelace'));
    expect(customer.status).toBe(201);
    customerId = customer.body.id;
    accountId = await accountOf(sandbox, customerId, 'USD');
    expect((await sandbox.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1_000 })).status).toBe(200);
    const external = await sandbox.post('/customers/external-accounts', { customerId, ...usdExternalAccountBody('001') });
    expect(external.status).toBe(201);
    externalId = external.body.id;
  });

  afterAll(async () => {
    await t?.stop();
  });

  it("a production token cannot read the platform's sandbox customers and accounts (404, absent from lists)", async () => {
    expect((await sandbox.get(`/customers/${customerId}`)).status).toBe(200);
    expect((await production.get(`/customers/${customerId}`)).status).toBe(404);
    expect((await production.get('/customers?limit=100')).body.data.map((c: { id: string }) => c.id)).not.toContain(customerId);
    expect((await production.get(`/internal-accounts/${accountId}`)).status).toBe(404);
    expect((await production.get(`/customers/external-accounts/${externalId}`)).status).toBe(404);
    // And the reverse: the production side's customers are not the sandbox's.
    const own = await production.post('/customers', customerBody('Grace Hopper'));
    expect(own.status).toBe(201);
    expect((await sandbox.get(`/customers/${own.body.id}`)).status).toBe(404);
    expect((await production.get(`/customers/${own.body.id}`)).status).toBe(200);
  });

  it('a production token cannot move sandbox-funded money out, nor mint any', async () => {
    const refused = await production.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 500 });
    expect(refused.status).toBe(404);
    // A production token on a sandbox path: 403, so it cannot fund its own accounts either.
    const minted = await production.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1_000 });
    expect(minted.status).toBe(403);
    expect((await sandbox.get(`/internal-accounts/${accountId}`)).body.balance.amount).toBe(1_000);
    // The same request with the sandbox token moves the money: the refusal above was the environment's.
    const paid = await sandbox.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 500 });
    expect(paid.status).toBe(201);
  });

  it('tokens and webhook configuration are per environment', async () => {
    const productionTokens = await production.get('/tokens?limit=100');
    const sandboxTokens = await sandbox.get('/tokens?limit=100');
    expect(productionTokens.status).toBe(200);
    const clientIds = (page: { body: { data: Array<{ clientId: string }> } }) => page.body.data.map((token) => token.clientId);
    expect(clientIds(productionTokens)).toEqual([production.credentials!.tokenId]);
    expect(clientIds(sandboxTokens)).toEqual([sandbox.credentials!.tokenId]);
    const updated = await sandbox.patch('/config', { webhookEndpoint: 'https://sandbox.example.com/hooks' });
    expect(updated.status).toBe(200);
    expect((await sandbox.get('/config')).body.webhookEndpoint).toBe('https://sandbox.example.com/hooks');
    expect((await production.get('/config')).body.webhookEndpoint).toBeUndefined();
  });
});

describe('Environments: a production deployment applies no sandbox rule, whatever the token', () => {
  let t: TestStack;
  let platformId: string;

  beforeAll(async () => {
    t = await startTestStack({ env: { DEPLOYMENT_ENV: 'production', WEBHOOK_KEY_ENCRYPTION_KEY: '11'.repeat(32), PAYMENTS_KEY_ENCRYPTION_KEY: '22'.repeat(32) } });
    platformId = (await t.stack.http.get(CredentialsService).findToken(t.credentials.tokenId))!.platformId;
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('answers 404 on /sandbox/* and lists no sandbox path or tag in /openapi.json', async () => {
    const customer = await t.api.post('/customers', customerBody('Ada Lovelace'));
    const accountId = await accountOf(t.api, customer.body.id, 'USD');
    for (const client of [t.api, await productionClient(t, platformId)]) {
      const funded = await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1_000 });
      expect(funded.status).toBe(404);
      expect(funded.body).toMatchObject({ status: 404, code: expect.any(String), message: expect.any(String) });
    }
    expect((await t.api.get(`/internal-accounts/${accountId}`)).body.balance.amount).toBe(0);
    const document = (await (await fetch(`${t.stack.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const paths = Object.keys(document.paths);
    expect(paths).toContain('/customers');
    expect(paths.filter((path) => path.startsWith('/sandbox'))).toEqual([]);
    const tags = Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? []));
    expect(tags.filter((tag) => /sandbox/i.test(tag))).toEqual([]);
  });

  it("magic values are plain data: a sandbox token's KYC-rejecting name, invalid-account number and delayed card are not applied", async () => {
    // Suffix 002 rejects KYC in the sandbox; here the review waits for a provider.
    const rejectedInSandbox = await t.api.post('/customers', customerBody('Ada Lovelace 002'));
    expect(rejectedInSandbox.status).toBe(201);
    const verification = await t.api.post('/verifications', { customerId: rejectedInSandbox.body.id });
    expect(verification.status).toBe(200);
    expect(verification.body.verificationStatus).not.toBe('REJECTED');
    expect((await t.api.get(`/customers/${rejectedInSandbox.body.id}`)).body.kycStatus).toBe('PENDING');

    // Account number suffix 105 is INVALID_ACCOUNT in the sandbox's name-verification table.
    const external = await t.api.post('/customers/external-accounts', { customerId: rejectedInSandbox.body.id, ...usdExternalAccountBody('105') });
    expect(external.status).toBe(201);
    expect(external.body.status).toBe('ACTIVE');

    // platformCardId suffix 005 holds a sandbox card in PROCESSING; here it is issued ACTIVE.
    await makeRegulated(t, platformId, 'sandbox');
    const holder = await t.api.post('/customers', customerBody('Grace Hopper'));
    const usdc = await accountOf(t.api, holder.body.id, 'USDC');
    const card = await t.api.post('/cards', { cardholderId: holder.body.id, form: 'VIRTUAL', fundingSources: [usdc], platformCardId: 'card-env-005' });
    expect(card.status).toBe(201);
    expect(card.body.state).toBe('ACTIVE');
  });
});
