/**
 * @distributed gateway: request/reply to every service over NATS, readiness, a service restarted under the gateway
 */
import { WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { createServiceRuntime, ServiceRuntime, startServiceApp } from '@paykit/runtime';
import { CustomersAppModule } from '../../apps/customers/src/app.module';
import { eventually, startTestStack, TestStack } from '../support/test-stack';

const ada = { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', birthDate: '1990-04-12', nationality: 'GB', email: 'Ada@Example.com' };

describe('Platform foundation (gateway, transport, customers slice)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack();
  });

  const extraRuntimes: ServiceRuntime[] = [];

  afterAll(async () => {
    await t?.stop();
    for (const runtime of extraRuntimes) {
      await runtime.client.close();
      await runtime.eventBus.close();
    }
  });

  describe('customers slice', () => {
    it('creates a customer and reads it back through gateway, transport and database', async () => {
      const created = await t.api.post('/customers', { ...ada, address: { line1: '1 Main St', city: 'London', postalCode: 'N1 9GU', country: 'GB' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        customerType: 'INDIVIDUAL',
        fullName: 'Ada Lovelace',
        birthDate: '1990-04-12',
        email: 'ada@example.com',
        kycStatus: 'PENDING',
        address: { country: 'GB' },
      });
      expect(created.body.id).toMatch(/^Customer:[0-9a-f-]{36}$/);
      expect(created.body.platformCustomerId).toEqual(expect.any(String));

      const fetched = await t.api.get(`/customers/${created.body.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(created.body);
    });

    it('keeps a given platformCustomerId, which several customers may share', async () => {
      const first = await t.api.post('/customers', { ...ada, platformCustomerId: 'shared-42' });
      const second = await t.api.post('/customers', { ...ada, platformCustomerId: 'shared-42' });
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(first.body.platformCustomerId).toBe('shared-42');
      expect(second.body.id).not.toBe(first.body.id);
    });

    it('answers 404 USER_NOT_FOUND for an unknown customer', async () => {
      const response = await t.api.get('/customers/Customer:00000000-0000-7000-8000-000000000000');
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
      // A client library would get the same answer again: it is told not to retry.
      expect(response.headers.get('x-should-retry')).toBe('false');
    });

    it("answers another platform's customer exactly like an unknown one", async () => {
      const created = await t.api.post('/customers', ada);
      const other = await t.newPlatform();
      const response = await other.api.get(`/customers/${created.body.id}`);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('USER_NOT_FOUND');
    });

    it('serves GET /config with supportedCurrencies and their required customer fields', async () => {
      const response = await t.api.get('/config');
      expect(response.status).toBe(200);
      expect(response.body.supportedCurrencies.length).toBeGreaterThan(0);
      for (const currency of response.body.supportedCurrencies) {
        expect(currency).toEqual({
          currencyCode: expect.any(String),
          minAmount: expect.any(Number),
          maxAmount: expect.any(Number),
          requiredCounterpartyFields: expect.any(Array),
          providerRequiredCustomerFields: expect.any(Array),
          enabledTransactionTypes: expect.any(Array),
        });
      }
    });

    it('announces a new customer to the webhooks service exactly once per event id', async () => {
      const created = await t.api.post('/customers', ada);
      const events = await eventually(async () => {
        const received = await t.stack.runtime.client.request(
          WEBHOOKS_SUBJECTS.listReceivedEvents,
          { resourceId: created.body.id },
          {
            platformId: await platformIdOf(t),
            environment: 'sandbox',
            requestId: 'test',
          },
        );
        // The customer's provisioning events (its accounts, its wallet) reach the inbox too, possibly in the same batch.
        return received.some((event) => event.subject === 'customers.events.customer.created') ? received : undefined;
      });
      const ids = events.map((event) => event.eventId);
      expect(new Set(ids).size).toBe(ids.length);
      const creations = events.filter((event) => event.subject === 'customers.events.customer.created');
      expect(creations).toHaveLength(1);
      expect(creations[0]).toMatchObject({ webhookType: 'CUSTOMER.KYC_PENDING', redeliveries: 0 });
    });
  });

  describe('validation and the error envelope', () => {
    it('lists every invalid field at once, with its constraint, and stores nothing', async () => {
      const response = await t.api.post('/customers', {
        customerType: 'PERSON',
        birthDate: '1990-02-30',
        nationality: 'gb',
        email: 'not-an-email',
        phoneNumber: '555-0100',
        address: { city: 7 },
        surprise: true,
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', message: expect.any(String) });
      const byField = Object.fromEntries(response.body.details.errors.map((e: { field: string }) => [e.field, e]));
      expect(byField.customerType.constraint).toEqual({ enum: ['INDIVIDUAL', 'BUSINESS'] });
      expect(byField.birthDate.constraint).toEqual({ format: 'date' });
      expect(byField.nationality.constraint).toEqual({ format: 'iso3166-1-alpha-2' });
      expect(byField.email.constraint).toEqual({ format: 'email' });
      expect(byField.phoneNumber.constraint).toEqual({ format: 'e.164' });
      expect(byField['address.line1'].message).toMatch(/required/);
      expect(byField['address.city'].message).toMatch(/string/);
      expect(byField['address.country'].message).toMatch(/required/);
      expect(byField.surprise.message).toMatch(/not a recognised field/);
    });

    it.each([
      ['malformed JSON', { raw: '{"customerType":', headers: { 'content-type': 'application/json' } }, 400, 'INVALID_INPUT'],
      ['a JSON array body', { raw: '[1,2]', headers: { 'content-type': 'application/json' } }, 400, 'INVALID_INPUT'],
      ['an oversized body', { raw: JSON.stringify({ fullName: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } }, 413, 'PAYLOAD_TOO_LARGE'],
    ])('answers %s with the envelope', async (_, options, status, code) => {
      const response = await t.api.post('/customers', undefined, options);
      expect(response.status).toBe(status);
      expect(response.body).toEqual(expect.objectContaining({ status, code, message: expect.any(String) }));
    });

    it.each([
      ['malformed JSON', '{"customerType":', /not valid JSON/],
      ['an empty body', '', /empty/],
      ['a __proto__ key', '{"customerType":"INDIVIDUAL","__proto__":{"x":1}}', /__proto__/],
    ])('answers %s with 400 and what was wrong in details.errors', async (_, raw, problem) => {
      const response = await t.api.post('/customers', undefined, { raw, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: '', message: expect.stringMatching(problem) }] } });
    });

    it('answers an unknown route with a 404 envelope', async () => {
      const response = await t.api.get('/no-such-thing');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Route not found' });
    });
  });

  describe('authentication', () => {
    it.each([
      ['no credentials', null],
      ['an unknown token', { tokenId: 'tok_unknown000000', secret: 'x'.repeat(43) }],
    ])('refuses %s with 401 UNAUTHORIZED and a reason', async (_, auth) => {
      const response = await t.api.get('/config', { auth });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED', details: { reason: expect.any(String) } });
    });

    it('refuses a known token with the wrong secret', async () => {
      const response = await t.api.get('/config', { auth: { tokenId: t.credentials.tokenId, secret: 'wrong'.repeat(9) } });
      expect(response.status).toBe(401);
    });

    it('refuses a bearer token that was never issued', async () => {
      const response = await t.api.get('/config', { auth: null, headers: { authorization: 'Bearer not-a-real-token' } });
      expect(response.status).toBe(401);
      expect(response.body.details.reason).toMatch(/agent access token/);
    });
  });

  describe('operations', () => {
    it('follows a request with its X-Request-Id', async () => {
      const response = await t.api.get('/config', { headers: { 'x-request-id': 'trace-abc-123' } });
      expect(response.headers.get('x-request-id')).toBe('trace-abc-123');
    });

    it('reports readiness of every service', async () => {
      const response = await fetch(`${t.stack.url}/ready`);
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(Object.values(body.services)).toEqual(Array(7).fill('ok'));
    });

    it('publishes the OpenAPI document with both security schemes', async () => {
      const response = await fetch(`${t.stack.url}/openapi.json`);
      const document = await response.json();
      expect(document.components.securitySchemes).toEqual(
        expect.objectContaining({ BasicAuth: expect.objectContaining({ scheme: 'basic' }), AgentAuth: expect.objectContaining({ scheme: 'bearer' }) }),
      );
      expect(document.paths['/customers'].post).toBeDefined();
      expect(document.paths['/customers/{customerId}'].get).toBeDefined();
      expect(document.servers[0].url).toBe('/2025-10-13');
    });

    it('answers 503 while a service is down and recovers when it is back, without restarting the gateway', async () => {
      await t.stack.services.get('customers')!.close();
      const down = await t.api.post('/customers', ada);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      // A later try may pass: client libraries keep their own retry rule.
      expect(down.headers.get('x-should-retry')).toBeNull();

      const broker = t.mode === 'embedded' ? (t.stack.runtime.client as unknown as { transport: { unwrap(): never } }).transport.unwrap() : undefined;
      const runtime = createServiceRuntime(t.stack.config, 'customers', { broker });
      extraRuntimes.push(runtime);
      t.stack.services.set('customers', await startServiceApp('customers', CustomersAppModule, runtime, { broker }));
      const back = await eventually(async () => {
        const response = await t.api.post('/customers', ada);
        return response.status === 201 ? response : undefined;
      });
      expect(back.body.fullName).toBe('Ada Lovelace');
    });
  });
});

async function platformIdOf(t: TestStack): Promise<string> {
  const customer = await t.api.post('/customers', ada);
  const token = await t.stack.http.get((await import('../../apps/gateway/src/auth/credentials.service')).CredentialsService).findToken(t.credentials.tokenId);
  expect(customer.status).toBe(201);
  return token!.platformId;
}
