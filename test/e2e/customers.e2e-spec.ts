import { CallerContext, CUSTOMERS_SUBJECTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { startTestStack, TestStack } from '../support/test-stack';
import { acmeFields, adaFields, created } from './customers.support';

describe('Customers: create, read, list, update, configuration', () => {
  let t: TestStack;
  let umaDomain: string;

  beforeAll(async () => {
    t = await startTestStack();
    umaDomain = (await t.api.get('/config')).body.umaDomain;
  });

  afterAll(async () => {
    await t?.stop();
  });

  function ctxOf(platformId: string): CallerContext {
    return { platformId, environment: 'sandbox', requestId: 'customers-e2e' };
  }

  describe('POST /customers', () => {
    it('creates an individual with every field of the spec and reads it back identically', async () => {
      const body = {
        ...adaFields,
        platformCustomerId: 'user-8812',
        umaAddress: `$ada@${umaDomain}`,
        sourceOfWealthCategories: ['SALARY', 'INVESTMENTS'],
        purposeOfAccount: 'P2P_TRANSFERS',
        annualIncomeRange: 'RANGE_100K_250K',
      };
      const customer = await created(t.api, body);
      expect(customer).toEqual({
        id: expect.stringMatching(/^Customer:[0-9a-f-]{36}$/),
        platformCustomerId: 'user-8812',
        customerType: 'INDIVIDUAL',
        fullName: 'Ada Lovelace',
        birthDate: '1990-04-12',
        nationality: 'GB',
        email: 'ada@example.com',
        phoneNumber: '+442071234567',
        address: adaFields.address,
        umaAddress: `$ada@${umaDomain}`,
        sourceOfWealthCategories: ['SALARY', 'INVESTMENTS'],
        purposeOfAccount: 'P2P_TRANSFERS',
        annualIncomeRange: 'RANGE_100K_250K',
        kycStatus: 'PENDING',
        isDeleted: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect((await t.api.get(`/customers/${customer.id}`)).body).toEqual(customer);
    });

    it('creates a business with kybStatus and no kycStatus', async () => {
      const customer = await created(t.api, acmeFields);
      expect(customer).toMatchObject({ customerType: 'BUSINESS', businessInfo: acmeFields.businessInfo, kybStatus: 'PENDING' });
      expect(customer.kycStatus).toBeUndefined();
    });

    it('generates a platformCustomerId when omitted', async () => {
      const customer = await created(t.api, { customerType: 'INDIVIDUAL', fullName: 'No Id' });
      expect(customer.platformCustomerId).toEqual(expect.any(String));
      expect(customer.id).toContain(customer.platformCustomerId);
    });

    it('lists every invalid field at once, each with its constraint', async () => {
      const response = await t.api.post('/customers', {
        customerType: 'INDIVIDUAL',
        birthDate: '1990-13-01',
        nationality: 'gb',
        email: 'nope',
        phoneNumber: '12345',
        purposeOfAccount: 'FUN',
        address: { line1: 'x', city: 'y', postalCode: 'z', country: 'GBR' },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_INPUT');
      expect(response.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(
        ['address.country', 'birthDate', 'email', 'nationality', 'phoneNumber', 'purposeOfAccount'].sort(),
      );
    });

    it.each([
      ['a date that does not exist', { birthDate: '1990-02-30' }, 'birthDate', { format: 'date' }],
      ['a date not in YYYY-MM-DD', { birthDate: '12/04/1990' }, 'birthDate', { format: 'date' }],
      ['a lowercase country', { nationality: 'gb' }, 'nationality', { format: 'iso3166-1-alpha-2' }],
      ['a country that does not exist', { nationality: 'XX' }, 'nationality', { format: 'iso3166-1-alpha-2' }],
      ['an address country by name', { address: { line1: 'a', city: 'b', postalCode: 'c', country: 'United Kingdom' } }, 'address.country', { format: 'iso3166-1-alpha-2' }],
      ['an email without @', { email: 'ada.example.com' }, 'email', { format: 'email' }],
      ['a phone number without +', { phoneNumber: '4155550123' }, 'phoneNumber', { format: 'e.164' }],
      ['a phone number with a leading 0 country code', { phoneNumber: '+0155550123' }, 'phoneNumber', { format: 'e.164' }],
      ['an unknown customer type', { customerType: 'PERSON' }, 'customerType', { enum: ['INDIVIDUAL', 'BUSINESS'] }],
      ['an unknown purpose of account', { purposeOfAccount: 'FUN' }, 'purposeOfAccount', { enum: expect.arrayContaining(['P2P_TRANSFERS']) }],
      ['an unknown income range', { annualIncomeRange: '100k' }, 'annualIncomeRange', { enum: expect.arrayContaining(['RANGE_100K_250K']) }],
      ['an unknown source of wealth', { sourceOfWealthCategories: ['LOTTERY'] }, 'sourceOfWealthCategories', { enum: expect.arrayContaining(['SALARY']) }],
      ['a full name over 200 characters', { fullName: 'x'.repeat(201) }, 'fullName', { maxLength: 200 }],
    ])('refuses %s with 400 INVALID_INPUT naming the field and its constraint', async (_, fields, field, constraint) => {
      const response = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Val Idation', ...fields });
      expect(response.status).toBe(400);
      expect(response.body.details.errors).toEqual([expect.objectContaining({ field, constraint })]);
    });

    it.each([
      ['businessInfo on an individual', { customerType: 'INDIVIDUAL', businessInfo: acmeFields.businessInfo }, 'businessInfo'],
      ['a business without businessInfo', { customerType: 'BUSINESS' }, 'businessInfo'],
      ['a birth date on a business', { ...acmeFields, birthDate: '1990-01-01' }, 'birthDate'],
      ['an unknown field', { customerType: 'INDIVIDUAL', favouriteColour: 'blue' }, 'favouriteColour'],
    ])('refuses %s', async (_, body, field) => {
      const response = await t.api.post('/customers', body);
      expect(response.status).toBe(400);
      expect(response.body.details.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    });
  });

  describe('UMA address rule', () => {
    it.each([
      ['mixed case, kept lowercase', (d: string) => `$Ada.Love-1_x+y@${d.toUpperCase()}`, (d: string) => `$ada.love-1_x+y@${d}`],
      ['64 characters including $', (d: string) => `$${'a'.repeat(63)}@${d}`, (d: string) => `$${'a'.repeat(63)}@${d}`],
    ])('accepts %s', async (_, input, stored) => {
      const customer = await created(t.api, { customerType: 'INDIVIDUAL', fullName: 'Uma User', umaAddress: input(umaDomain) });
      expect(customer.umaAddress).toBe(stored(umaDomain));
    });

    it.each([
      ['no $', (d: string) => `ada@${d}`],
      ['65 characters including $', (d: string) => `$${'a'.repeat(64)}@${d}`],
      ['a character outside a-z0-9-_.+', (d: string) => `$ada!@${d}`],
      ['an empty username', (d: string) => `$@${d}`],
      ["another domain than the platform's", () => '$ada@uma.other.example'],
      ['no domain', () => '$ada'],
    ])('refuses %s with 400 INVALID_UMA_ADDRESS', async (_, input) => {
      const response = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Uma User', umaAddress: input(umaDomain) });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 400, code: 'INVALID_UMA_ADDRESS', details: { errors: [expect.objectContaining({ field: 'umaAddress' })] } });
    });

    it('refuses a UMA address another customer of the platform holds with 409', async () => {
      await created(t.api, { customerType: 'INDIVIDUAL', fullName: 'First', umaAddress: `$taken@${umaDomain}` });
      const second = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Second', umaAddress: `$TAKEN@${umaDomain}` });
      expect(second.status).toBe(409);
      expect(second.body.code).toBe('UMA_ADDRESS_EXISTS');
    });

    it('in a burst of creations committed together, only those claiming a held address are refused', async () => {
      await created(t.api, { customerType: 'INDIVIDUAL', fullName: 'Holder', umaAddress: `$held@${umaDomain}` });
      const addresses = [...Array.from({ length: 20 }, (_, i) => `$burst-${i}@${umaDomain}`), `$held@${umaDomain}`, `$twice@${umaDomain}`, `$twice@${umaDomain}`];
      const responses = await Promise.all(addresses.map((umaAddress) => t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Burst', umaAddress })));
      const outcome = responses.map((response, i) => [addresses[i], response.status] as const);
      expect(outcome.slice(0, 20).every(([, status]) => status === 201)).toBe(true);
      expect(outcome[20]).toEqual([`$held@${umaDomain}`, 409]);
      // Of two creations claiming one address, exactly one wins.
      expect([outcome[21][1], outcome[22][1]].sort()).toEqual([201, 409]);
      const listed = await t.api.get(`/customers?umaAddress=${encodeURIComponent(`$twice@${umaDomain}`)}`);
      expect(listed.body.data).toHaveLength(1);
    });
  });

  describe('GET /customers/{id} and the list', () => {
    it('answers 404 USER_NOT_FOUND for unknown and foreign customers alike', async () => {
      const mine = await created(t.api, adaFields);
      const other = await t.newPlatform();
      for (const response of [await t.api.get('/customers/Customer:00000000-0000-7000-8000-000000000000'), await other.api.get(`/customers/${mine.id}`)]) {
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
      }
    });

    it('looks customers up by platformCustomerId (several may share one), newest first, on this platform only', async () => {
      const first = await created(t.api, { ...adaFields, platformCustomerId: 'family-7' });
      const second = await created(t.api, { ...acmeFields, platformCustomerId: 'family-7' });
      const other = await t.newPlatform();
      await created(other.api, { ...adaFields, platformCustomerId: 'family-7' });
      const response = await t.api.get('/customers?platformCustomerId=family-7');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: [second, first], hasMore: false, totalCount: 2 });
    });

    it('filters by type, status and creation range, and pages with a cursor', async () => {
      const platform = await t.newPlatform();
      const people = [];
      for (let i = 0; i < 5; i += 1) people.push(await created(platform.api, { customerType: 'INDIVIDUAL', fullName: `Person ${i}` }));
      const business = await created(platform.api, acmeFields);

      const businesses = await platform.api.get('/customers?customerType=BUSINESS');
      expect(businesses.body.data.map((c: { id: string }) => c.id)).toEqual([business.id]);
      const pendingKyb = await platform.api.get('/customers?kybStatus=PENDING');
      expect(pendingKyb.body.data.map((c: { id: string }) => c.id)).toEqual([business.id]);
      const approvedKyc = await platform.api.get('/customers?kycStatus=APPROVED');
      expect(approvedKyc.body.data).toEqual([]);

      const page1 = await platform.api.get('/customers?customerType=INDIVIDUAL&limit=2');
      expect(page1.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String), totalCount: 5 });
      const page2 = await platform.api.get(`/customers?customerType=INDIVIDUAL&limit=2&cursor=${page1.body.nextCursor}`);
      const page3 = await platform.api.get(`/customers?customerType=INDIVIDUAL&limit=2&cursor=${page2.body.nextCursor}`);
      expect(page3.body).toMatchObject({ hasMore: false, totalCount: 5 });
      expect(businesses.body.totalCount).toBe(1);
      expect(approvedKyc.body.totalCount).toBe(0);
      const ids = [...page1.body.data, ...page2.body.data, ...page3.body.data].map((c: { id: string }) => c.id);
      expect(ids).toEqual(people.map((p) => p.id).reverse());

      const after = encodeURIComponent(people[2].createdAt);
      const before = encodeURIComponent(business.createdAt);
      const range = await platform.api.get(`/customers?createdAfter=${after}&createdBefore=${before}`);
      expect(range.body.data.map((c: { id: string }) => c.id)).toEqual([people[4].id, people[3].id, people[2].id]);
    });

    it.each([
      ['limit=0', 'limit', { minimum: 1 }],
      ['limit=101', 'limit', { maximum: 100 }],
      ['kycStatus=DONE', 'kycStatus', { enum: ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'] }],
      ['createdAfter=yesterday', 'createdAfter', { format: 'date-time' }],
    ])('refuses the query %s', async (query, field, constraint) => {
      const response = await t.api.get(`/customers?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.details.errors).toEqual([expect.objectContaining({ field, constraint })]);
    });

    it('refuses a cursor it did not issue', async () => {
      const response = await t.api.get(`/customers?cursor=${Buffer.from('Card:123').toString('base64url')}`);
      expect(response.status).toBe(400);
      expect(response.body.details.errors[0].field).toBe('cursor');
    });
  });

  describe('PATCH /customers/{customerId}', () => {
    it('updates the given fields only and announces nothing new about KYC', async () => {
      const customer = await created(t.api, { customerType: 'INDIVIDUAL', fullName: 'Grace Hopper' });
      const response = await t.api.patch(`/customers/${customer.id}`, {
        customerType: 'INDIVIDUAL',
        birthDate: '1906-12-09',
        nationality: 'US',
        umaAddress: `$grace@${umaDomain}`,
        sourceOfWealthCategories: ['RETIREMENT'],
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        fullName: 'Grace Hopper',
        birthDate: '1906-12-09',
        nationality: 'US',
        umaAddress: `$grace@${umaDomain}`,
        sourceOfWealthCategories: ['RETIREMENT'],
        kycStatus: 'PENDING',
      });
      expect(response.body.updatedAt >= customer.updatedAt).toBe(true);
      expect((await t.api.get(`/customers/${customer.id}`)).body).toEqual(response.body);
    });

    it('requires the body customerType to be the customer type', async () => {
      const customer = await created(t.api, acmeFields);
      const missing = await t.api.patch(`/customers/${customer.id}`, { email: 'x@acme.example' });
      expect(missing.status).toBe(400);
      expect(missing.body.details.errors[0]).toMatchObject({ field: 'customerType' });
      const wrong = await t.api.patch(`/customers/${customer.id}`, { customerType: 'INDIVIDUAL', email: 'x@acme.example' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.details.errors[0]).toMatchObject({ field: 'customerType', constraint: { enum: ['BUSINESS'] } });
    });

    it('validates like POST and answers 404 for a foreign customer', async () => {
      const customer = await created(t.api, adaFields);
      const bad = await t.api.patch(`/customers/${customer.id}`, { customerType: 'INDIVIDUAL', birthDate: '2001-02-29', umaAddress: '$x@elsewhere.example' });
      expect(bad.status).toBe(400);
      expect(bad.body.details.errors).toEqual([expect.objectContaining({ field: 'birthDate', constraint: { format: 'date' } })]);
      const other = await t.newPlatform();
      const foreign = await other.api.patch(`/customers/${customer.id}`, { customerType: 'INDIVIDUAL', fullName: 'Mallory' });
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('USER_NOT_FOUND');
    });
  });

  describe('platform configuration and required customer fields', () => {
    it('serves supportedCurrencies with providerRequiredCustomerFields', async () => {
      const response = await t.api.get('/config');
      expect(response.status).toBe(200);
      const usd = response.body.supportedCurrencies.find((c: { currencyCode: string }) => c.currencyCode === 'USD');
      expect(usd).toMatchObject({
        minAmount: expect.any(Number),
        maxAmount: expect.any(Number),
        requiredCounterpartyFields: expect.any(Array),
        enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
      });
      expect(usd.providerRequiredCustomerFields).toEqual(expect.arrayContaining(['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY', 'POSTAL_ADDRESS', 'EMAIL']));
    });

    it('tells which fields a currency still needs (MISSING_MANDATORY_USER_INFO) until a PATCH completes them', async () => {
      const platform = await t.newPlatform();
      const ctx = ctxOf(platform.platformId);
      const customer = await created(platform.api, { customerType: 'INDIVIDUAL', fullName: 'Partial Person' });
      const refusal = await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.checkRequirements, { customerId: customer.id, currencyCode: 'USD' }, ctx).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(ServiceError);
      expect((refusal as ServiceError).status).toBe(400);
      expect(refusal).toMatchObject({ code: 'MISSING_MANDATORY_USER_INFO', details: { currencyCode: 'USD', missingFields: ['birthDate', 'nationality', 'address', 'email'] } });

      await platform.api.patch(`/customers/${customer.id}`, {
        customerType: 'INDIVIDUAL',
        birthDate: '1980-01-01',
        nationality: 'US',
        email: 'p@example.com',
        address: adaFields.address,
      });
      const ready = await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.checkRequirements, { customerId: customer.id, currencyCode: 'USD' }, ctx);
      expect(ready).toEqual({
        customerId: customer.id,
        platformCustomerId: customer.platformCustomerId,
        currencyCode: 'USD',
        customerType: 'INDIVIDUAL',
        kycStatus: 'PENDING',
        feeConfigs: [],
        // A US address: outside the EEA, so no strong customer authentication.
        scaRegulated: false,
      });
    });

    it('applies business fields to businesses', async () => {
      const platform = await t.newPlatform();
      const customer = await created(platform.api, { customerType: 'BUSINESS', businessInfo: { legalName: 'Nordic ApS' } });
      const refusal = await t.stack.runtime.client
        .request(CUSTOMERS_SUBJECTS.checkRequirements, { customerId: customer.id, currencyCode: 'EUR' }, ctxOf(platform.platformId))
        .catch((e: unknown) => e);
      expect(refusal).toMatchObject({ code: 'MISSING_MANDATORY_USER_INFO', details: { missingFields: ['address', 'businessInfo.registrationNumber'] } });
    });

    it('creates the customers of a regulated platform APPROVED, without a PENDING webhook', async () => {
      const platform = await t.newPlatform();
      const config = await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctxOf(platform.platformId));
      expect(config.regulated).toBe(true);
      expect((await platform.api.get('/config')).body.regulated).toBe(true);
      expect((await created(platform.api, adaFields)).kycStatus).toBe('APPROVED');
      expect((await created(platform.api, acmeFields)).kybStatus).toBe('APPROVED');
    });
  });

  it('documents every customers endpoint in the OpenAPI output', async () => {
    const document = await (await fetch(`${t.stack.url}/openapi.json`)).json();
    const operations: Array<[string, string]> = [
      ['/customers', 'post'],
      ['/customers', 'get'],
      ['/customers/{customerId}', 'get'],
      ['/customers/{customerId}', 'patch'],
      ['/customers/{customerId}', 'delete'],
      ['/customers/end-user-terms', 'get'],
      ['/customers/{customerId}/kyc-link', 'post'],
      ['/customers/{customerId}/verify-email', 'post'],
      ['/customers/{customerId}/verify-email/confirm', 'post'],
      ['/customers/{customerId}/verify-phone', 'post'],
      ['/customers/{customerId}/verify-phone/confirm', 'post'],
      ['/customers/bulk/csv', 'post'],
      ['/customers/bulk/jobs/{jobId}', 'get'],
      ['/verifications', 'post'],
      ['/verifications', 'get'],
      ['/verifications/{verificationId}', 'get'],
      ['/beneficial-owners', 'post'],
      ['/beneficial-owners', 'get'],
      ['/beneficial-owners/{beneficialOwnerId}', 'get'],
      ['/beneficial-owners/{beneficialOwnerId}', 'patch'],
      ['/documents', 'post'],
      ['/documents', 'get'],
      ['/documents/{documentId}', 'get'],
      ['/documents/{documentId}', 'put'],
      ['/documents/{documentId}', 'delete'],
      ['/config', 'get'],
      ['/config', 'patch'],
    ];
    for (const [path, method] of operations) {
      const operation = document.paths[path]?.[method];
      expect({ path, method, documented: Boolean(operation?.summary && operation.responses) }).toEqual({ path, method, documented: true });
    }
    expect(document.paths['/documents'].post.requestBody.content['multipart/form-data']).toBeDefined();
  });
});
