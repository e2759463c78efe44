import { CallerContext, CUSTOMERS_SUBJECTS } from '@paykit/contracts';
import { ApiClient, ApiResponse } from '../support/api-client';
import { eventually, startTestStack, TestStack } from '../support/test-stack';
import { acmeFields, adaFields, created, postForm, WebhookReceiver } from './customers.support';

/** A business customer's body exactly as the reference document requires it (businessInfo: legalName, country, taxId, incorporatedOn). */
const referenceBusiness = {
  customerType: 'BUSINESS',
  platformCustomerId: 'biz-ref-1',
  region: 'CA',
  currencies: ['USD', 'EUR'],
  email: 'treasury@acme.example',
  phoneNumber: '+14155550100',
  endUserTermsConsent: { acceptedAt: '2025-10-01T12:00:00Z', ipAddress: '203.0.113.7', termsVersion: '2025-10-13', acceptanceMethod: 'CHECKBOX' },
  address: { line1: '400 Commerce Way', postalCode: '78701', country: 'US' },
  businessInfo: {
    legalName: 'Acme Reference LLC',
    doingBusinessAs: 'Acme',
    country: 'US',
    registrationNumber: 'REG-42',
    incorporatedOn: '2019-03-14',
    entityType: 'LLC',
    taxId: '12-3456789',
    countriesOfOperation: ['US', 'MX'],
    businessType: 'FINANCE_AND_INSURANCE',
    purposeOfAccount: 'SUPPLIER_PAYMENTS',
    sourceOfFunds: 'Subscription revenue',
    expectedMonthlyTransactionCount: 'COUNT_100_TO_500',
    expectedMonthlyTransactionVolume: 'VOLUME_100K_TO_1M',
    expectedRecipientJurisdictions: ['MX'],
    naicsCode: '522320',
    sourceOfFundsCategories: ['OPERATING_REVENUE', 'OTHER'],
    sourceOfFundsOtherDescription: 'Grants',
    purposeOfAccountOtherDescription: 'Escrow',
    expectedCounterpartyCountries: ['MX', 'BR'],
    primaryContactFirstName: 'Grace',
    primaryContactLastName: 'Hopper',
  },
};

/** An individual with every reference field besides the spec's. */
const referenceIndividual = {
  ...adaFields,
  region: 'LND',
  currencies: ['GBP'],
  idType: 'NON_US_TAX_ID',
  identifier: 'AB123456C',
  countryOfIssuance: 'GB',
  sourceOfFundsCategories: ['SALARY', 'OTHER'],
  sourceOfFundsOtherDescription: 'Prize',
  sourceOfWealthCategories: ['PROPERTY_SALE'],
  sourceOfWealthOtherDescription: 'Inherited house',
  purposeOfAccount: 'OTHER',
  purposeOfAccountOtherDescription: 'Tuition abroad',
  expectedMonthlyTransactionCount: 'COUNT_10_TO_100',
  expectedMonthlyTransactionVolume: 'VOLUME_UNDER_10K',
  annualIncomeRange: 'UNDER_50K',
  netWorthRange: 'RANGE_100K_500K',
  pepStatus: 'NONE',
  endUserTermsConsent: { acceptedAt: '2025-10-02T09:30:00Z', ipAddress: '2001:db8::1', termsVersion: '2025-10-13', acceptanceMethod: 'CLICK_TO_ACCEPT' },
};

const grace = { firstName: 'Grace', lastName: 'Hopper', birthDate: '1976-12-09', nationality: 'US', address: { line1: '1 Navy Way', postalCode: '20001', country: 'US' } };
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

function documentForm(fields: Record<string, string>, name = 'scan.pdf'): FormData {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), name);
  return form;
}

/** PUT of a multipart form (document replacement). */
async function putForm(api: ApiClient, path: string, form: FormData): Promise<ApiResponse> {
  const auth = api.credentials!;
  const response = await fetch(api.baseUrl + path, {
    method: 'PUT',
    headers: { authorization: `Basic ${Buffer.from(`${auth.tokenId}:${auth.secret}`).toString('base64')}` },
    body: form,
  });
  return { status: response.status, headers: response.headers, body: await response.json().catch(() => undefined) };
}

function fieldsOf(response: ApiResponse): string[] {
  return (response.body.details.errors as Array<{ field: string }>).map((e) => e.field).sort();
}

describe('Customers area: the reference document fields and operations', () => {
  let t: TestStack;
  let umaDomain: string;

  beforeAll(async () => {
    t = await startTestStack();
    umaDomain = (await t.api.get('/config')).body.umaDomain;
  });

  afterAll(async () => {
    await t?.stop();
  });

  describe('POST, GET and PATCH /customers with every reference field', () => {
    it("creates a business from the reference's required businessInfo body and reads every field back", async () => {
      const response = await t.api.post('/customers', referenceBusiness);
      expect(response.status).toBe(201);
      const { endUserTermsConsent, ...rest } = referenceBusiness;
      expect(response.body).toEqual({
        ...rest,
        id: expect.stringMatching(/^Customer:/),
        endUserTermsConsent,
        umaAddress: `$${response.body.id.slice('Customer:'.length)}@${umaDomain}`,
        kybStatus: 'PENDING',
        isDeleted: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect((await t.api.get(`/customers/${response.body.id}`)).body).toEqual(response.body);
    });

    it('creates an individual with the identity and due diligence fields; the identifier is stored but never returned', async () => {
      const customer = await created(t.api, referenceIndividual);
      const { identifier, ...shown } = referenceIndividual;
      expect(identifier).toBeDefined();
      expect(customer).toMatchObject(shown);
      expect(customer.identifier).toBeUndefined();
      expect(JSON.stringify(await t.api.get(`/customers/${customer.id}`))).not.toContain(identifier);
    });

    it('accepts an address without city and a business PATCH without legalName, merging businessInfo', async () => {
      const business = await created(t.api, { ...acmeFields, address: { line1: '1 Market St', postalCode: '94105', country: 'US' } });
      expect(business.address.city).toBeUndefined();
      const patched = await t.api.patch(`/customers/${business.id}`, { customerType: 'BUSINESS', businessInfo: { incorporatedOn: '2020-01-31', country: 'US' }, region: 'CA' });
      expect(patched.status).toBe(200);
      expect(patched.body.businessInfo).toEqual({ ...acmeFields.businessInfo, incorporatedOn: '2020-01-31', country: 'US' });
      expect(patched.body.region).toBe('CA');
    });

    it('lists every invalid reference field at once, each with its constraint', async () => {
      const response = await t.api.post('/customers', {
        customerType: 'BUSINESS',
        endUserTermsConsent: { acceptedAt: 'yesterday', ipAddress: 'x'.repeat(46), acceptanceMethod: 'NOD' },
        businessInfo: { country: 'USA', incorporatedOn: '2019-02-30', entityType: 'GUILD', naicsCode: '1', businessType: 'PIRACY', sourceOfFundsCategories: ['SALARY'] },
        kybStatus: 'DONE',
      });
      expect(response.status).toBe(400);
      expect(fieldsOf(response)).toEqual(
        [
          'businessInfo.businessType',
          'businessInfo.country',
          'businessInfo.entityType',
          'businessInfo.incorporatedOn',
          'businessInfo.legalName',
          'businessInfo.naicsCode',
          'businessInfo.sourceOfFundsCategories',
          'endUserTermsConsent.acceptanceMethod',
          'endUserTermsConsent.acceptedAt',
          'endUserTermsConsent.ipAddress',
          'endUserTermsConsent.termsVersion',
          'kybStatus',
        ].sort(),
      );
      const byField = Object.fromEntries(response.body.details.errors.map((e: { field: string }) => [e.field, e]));
      expect(byField['businessInfo.naicsCode'].constraint).toEqual({ pattern: '^\\d{2,6}$' });
      expect(byField['businessInfo.entityType'].constraint.enum).toContain('LLC');
    });

    it.each([
      ['idType on a business', { ...acmeFields, idType: 'EIN' }, 'idType'],
      ['kybStatus on an individual', { ...adaFields, kybStatus: 'APPROVED' }, 'kybStatus'],
      ['an unknown pepStatus', { ...adaFields, pepStatus: 'MAYBE' }, 'pepStatus'],
      ['an unknown net worth range', { ...adaFields, netWorthRange: 'LOTS' }, 'netWorthRange'],
    ])('refuses %s', async (_, body, field) => {
      const response = await t.api.post('/customers', body);
      expect(response.status).toBe(400);
      expect(fieldsOf(response)).toEqual([field]);
    });

    it('refuses on an unregulated platform a stated KYC status and currencies it does not offer, listing both', async () => {
      const response = await t.api.post('/customers', { ...adaFields, kycStatus: 'APPROVED', currencies: ['USD', 'JPY'] });
      expect(response.status).toBe(400);
      expect(fieldsOf(response)).toEqual(['currencies.1', 'kycStatus']);
    });

    it('takes the KYC status a regulated platform states', async () => {
      const platform = await t.newPlatform();
      const ctx: CallerContext = { platformId: platform.platformId, environment: 'sandbox', requestId: 'reference-e2e' };
      await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
      expect((await created(platform.api, { ...adaFields, kycStatus: 'HOLD' })).kycStatus).toBe('HOLD');
      expect((await created(platform.api, adaFields)).kycStatus).toBe('APPROVED');
    });

    it('refuses end user terms of an unknown version with END_USER_TERMS_VERSION_NOT_FOUND', async () => {
      const response = await t.api.post('/customers', { ...adaFields, endUserTermsConsent: { ...referenceIndividual.endUserTermsConsent, termsVersion: '1999-01-01' } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'END_USER_TERMS_VERSION_NOT_FOUND', details: { errors: [{ field: 'endUserTermsConsent.termsVersion' }] } });
    });
  });

  describe('GET /customers/end-user-terms', () => {
    it('answers the version in force and a URL whose page publishes it', async () => {
      const response = await t.api.get('/customers/end-user-terms');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ version: '2025-10-13', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/end-user-terms\/2025-10-13$/) });
      const page = await fetch(response.body.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('2025-10-13');
      expect((await fetch(response.body.url.replace('2025-10-13', '1999-01-01'))).status).toBe(404);
    });
  });

  describe('DELETE /customers/{customerId}', () => {
    it('flags the customer deleted, keeps it readable, leaves it out of lists, refuses changes with 410, and announces it', async () => {
      const platform = await t.newPlatform();
      const customer = await created(platform.api, { ...adaFields, platformCustomerId: 'to-delete' });
      const deleted = await platform.api.delete(`/customers/${customer.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ id: customer.id, isDeleted: true });
      expect((await platform.api.get(`/customers/${customer.id}`)).body.isDeleted).toBe(true);
      expect((await platform.api.get('/customers')).body.data).toEqual([]);
      expect((await platform.api.get('/customers?isIncludingDeleted=true')).body.data.map((c: { id: string }) => c.id)).toEqual([customer.id]);
      for (const response of [
        await platform.api.delete(`/customers/${customer.id}`),
        await platform.api.patch(`/customers/${customer.id}`, { customerType: 'INDIVIDUAL', fullName: 'Back Again' }),
        await platform.api.post('/verifications', { customerId: customer.id }),
        await platform.api.post(`/customers/${customer.id}/kyc-link`, {}),
      ]) {
        expect(response.status).toBe(410);
        expect(response.body).toMatchObject({ status: 410, code: 'CUSTOMER_DELETED' });
      }
      const ctx: CallerContext = { platformId: platform.platformId, environment: 'sandbox', requestId: 'reference-e2e' };
      await expect(t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.checkRequirements, { customerId: customer.id, currencyCode: 'GBP' }, ctx)).rejects.toMatchObject({
        code: 'CUSTOMER_DELETED',
      });
      // The services holding its resources give it nothing new.
      const account = await platform.api.post('/customers/external-accounts', {
        customerId: customer.id,
        currency: 'MXN',
        platformAccountId: 'pa-deleted',
        accountInfo: {
          accountType: 'MXN_ACCOUNT',
          clabeNumber: '002010077777777771',
          bankName: 'BBVA México',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
        },
      });
      const card = await platform.api.post('/cards', { cardholderId: customer.id, form: 'VIRTUAL', fundingSources: ['InternalAccount:00000000-0000-7000-8000-000000000000'] });
      for (const response of [account, card]) expect(response.body).toMatchObject({ status: 410, code: 'CUSTOMER_DELETED' });
    });

    it("answers 404 USER_NOT_FOUND for another platform's customer and an unknown id", async () => {
      const customer = await created(t.api, adaFields);
      const other = await t.newPlatform();
      for (const response of [await other.api.delete(`/customers/${customer.id}`), await t.api.delete('/customers/Customer:00000000-0000-7000-8000-000000000000')]) {
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('USER_NOT_FOUND');
      }
      expect((await t.api.get(`/customers/${customer.id}`)).body.isDeleted).toBe(false);
    });
  });

  describe('UMA addresses and the platform UMA domain', () => {
    it("generates a UMA address on the platform's domain, and a new umaDomain moves every address to it", async () => {
      const platform = await t.newPlatform();
      const generated = await created(platform.api, { customerType: 'INDIVIDUAL', fullName: 'No Address' });
      const chosen = await created(platform.api, { customerType: 'INDIVIDUAL', fullName: 'Chosen', umaAddress: `$chosen@${(await platform.api.get('/config')).body.umaDomain}` });
      expect(generated.umaAddress).toMatch(/^\$[0-9a-f-]{36}@p-[0-9a-f]{10}\.uma\.sandbox\.paykit\.dev$/);
      // Payments' receiver directory follows the customers' events: the address resolves before and after the move.
      const resolves = (address: string) => eventually(async () => ((await platform.api.get(`/receiver/uma/${encodeURIComponent(address)}`)).status === 200 ? true : undefined));
      await resolves(chosen.umaAddress);
      const patched = await platform.api.patch('/config', { umaDomain: 'Pay.Acme.Example' });
      expect(patched.status).toBe(200);
      expect(patched.body.umaDomain).toBe('pay.acme.example');
      expect((await platform.api.get(`/customers/${chosen.id}`)).body.umaAddress).toBe('$chosen@pay.acme.example');
      expect((await platform.api.get(`/customers/${generated.id}`)).body.umaAddress).toBe(generated.umaAddress.replace(/@.*$/, '@pay.acme.example'));
      expect((await created(platform.api, { customerType: 'INDIVIDUAL', fullName: 'Later', umaAddress: '$later@pay.acme.example' })).umaAddress).toBe('$later@pay.acme.example');
      const lookup = await platform.api.get(`/customers?umaAddress=${encodeURIComponent('$CHOSEN@pay.acme.example')}`);
      expect(lookup.body.data.map((c: { id: string }) => c.id)).toEqual([chosen.id]);
      await resolves('$chosen@pay.acme.example');
    });
  });

  describe('GET and PATCH /config', () => {
    it('stores and returns the currencies, fees and message settings, keeping the provider fields read-only', async () => {
      const platform = await t.newPlatform();
      const before = (await platform.api.get('/config')).body;
      const usd = before.supportedCurrencies.find((c: { currencyCode: string }) => c.currencyCode === 'USD');
      expect(usd).toEqual({
        currencyCode: 'USD',
        minAmount: expect.any(Number),
        maxAmount: expect.any(Number),
        requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
        providerRequiredCustomerFields: ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY', 'POSTAL_ADDRESS', 'EMAIL'],
        enabledTransactionTypes: ['OUTGOING', 'INCOMING'],
      });
      const change = {
        supportedCurrencies: [
          { ...usd, minAmount: 500, maxAmount: 2_000_000, requiredCounterpartyFields: [{ name: 'BIRTH_DATE', mandatory: false }], providerRequiredCustomerFields: ['EMAIL'] },
          { currencyCode: 'MXN', minAmount: 1000, maxAmount: 5_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING'] },
        ],
        embeddedWalletConfig: { appName: 'Acme Wallet', otpLength: 8, alphanumeric: true, expirationSeconds: 300, sendFromEmailAddress: 'no-reply@acme.example' },
        cardTokenization2faConfig: { displayName: 'Acme', logoUrl: 'https://acme.example/logo.png', email: { subject: 'Your code' }, sms: { bodyText: 'Code {code}' } },
        feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 25, fixedFee: { amount: 30, currency: 'USD' } }],
      };
      const patched = await platform.api.patch('/config', change);
      expect(patched.status).toBe(200);
      expect(patched.body.supportedCurrencies).toEqual([
        { ...change.supportedCurrencies[0], providerRequiredCustomerFields: usd.providerRequiredCustomerFields },
        { ...change.supportedCurrencies[1], providerRequiredCustomerFields: ['FULL_NAME', 'BIRTH_DATE'] },
      ]);
      expect(patched.body).toMatchObject({
        embeddedWalletConfig: change.embeddedWalletConfig,
        cardTokenization2faConfig: change.cardTokenization2faConfig,
        feeConfigs: change.feeConfigs,
      });
      expect((await platform.api.get('/config')).body).toEqual(patched.body);
      // A customer's currencies are the platform's: EUR is no longer one.
      expect(fieldsOf(await platform.api.post('/customers', { ...adaFields, currencies: ['EUR'] }))).toEqual(['currencies.0']);
    });

    it('lists every invalid setting at once and changes nothing', async () => {
      const platform = await t.newPlatform();
      const before = (await platform.api.get('/config')).body;
      const response = await platform.api.patch('/config', {
        umaDomain: 'not a domain',
        supportedCurrencies: [
          { currencyCode: 'JPY', minAmount: 1, maxAmount: 2, requiredCounterpartyFields: [], enabledTransactionTypes: [] },
          { currencyCode: 'USD', minAmount: 10, maxAmount: 5, requiredCounterpartyFields: [{ name: 'SHOE_SIZE', mandatory: true }], enabledTransactionTypes: ['SIDEWAYS'] },
        ],
        embeddedWalletConfig: { otpLength: 3 },
        cardTokenization2faConfig: { logoUrl: 'http://acme.example/logo.png' },
        feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 10001, fixedFee: { amount: -1, currency: 'USD' } }],
      });
      expect(response.status).toBe(400);
      expect(fieldsOf(response)).toEqual(
        [
          'cardTokenization2faConfig.logoUrl',
          'embeddedWalletConfig.otpLength',
          'feeConfigs.0.fixedFee.amount',
          'feeConfigs.0.variableFeeBps',
          'supportedCurrencies.0.currencyCode',
          'supportedCurrencies.1.enabledTransactionTypes',
          'supportedCurrencies.1.maxAmount',
          'supportedCurrencies.1.requiredCounterpartyFields.0.name',
          'umaDomain',
        ].sort(),
      );
      expect((await platform.api.get('/config')).body).toEqual(before);
    });
  });

  describe('GET /verifications and GET /verifications/{id}', () => {
    it("lists and gets verifications with the reference's errors, scoped by platform", async () => {
      const platform = await t.newPlatform();
      const customer = await created(platform.api, { ...adaFields, fullName: 'Needs More 003' });
      const first = (await platform.api.post('/verifications', { customerId: customer.id })).body;
      expect(first.errors[0]).toEqual({ resourceId: customer.id, type: 'MISSING_FIELD', field: 'edd.sourceOfWealthCategories', reason: expect.any(String) });
      const other = await created(platform.api, adaFields);
      const second = (await platform.api.post('/verifications', { customerId: other.id })).body;
      const { kycStatus: _firstStatus, ...firstRecord } = first;
      const { kycStatus: _secondStatus, ...secondRecord } = second;
      expect((await platform.api.get(`/verifications/${first.id}`)).body).toEqual(firstRecord);
      expect((await platform.api.get('/verifications')).body).toEqual({ data: [secondRecord, firstRecord], hasMore: false, totalCount: 2 });
      expect((await platform.api.get(`/verifications?customerId=${customer.id}`)).body.data).toEqual([firstRecord]);
      expect((await platform.api.get('/verifications?verificationStatus=IN_PROGRESS')).body.data).toEqual([secondRecord]);
      const page = await platform.api.get('/verifications?limit=1');
      expect(page.body).toMatchObject({ data: [secondRecord], hasMore: true, totalCount: 2 });
      expect((await platform.api.get(`/verifications?limit=1&cursor=${page.body.nextCursor}`)).body.data).toEqual([firstRecord]);

      const stranger = await t.newPlatform();
      const foreign = await stranger.api.get(`/verifications/${first.id}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('REFERENCE_NOT_FOUND');
      expect((await stranger.api.get('/verifications')).body.data).toEqual([]);
      const bad = await platform.api.get('/verifications?verificationStatus=DONE&limit=0');
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad)).toEqual(['limit', 'verificationStatus']);
    });

    it('announces each verification with a VERIFICATION.* webhook carrying the Verification', async () => {
      const platform = await t.newPlatform();
      const receiver = await WebhookReceiver.attach(platform.api);
      try {
        const customer = await created(platform.api, { ...adaFields, fullName: 'Refused 002' });
        const verification = (await platform.api.post('/verifications', { customerId: customer.id })).body;
        const [hook] = await receiver.waitFor(verification.id, ['VERIFICATION.REJECTED']);
        expect(hook.verified).toBe(true);
        expect(hook.payload.data).toEqual({
          id: verification.id,
          customerId: customer.id,
          verificationStatus: 'REJECTED',
          errors: [],
          createdAt: verification.createdAt,
          updatedAt: verification.updatedAt,
        });
      } finally {
        await receiver.close();
      }
    });
  });

  describe('beneficial owners: reference roles, personalInfo and PATCH', () => {
    it('registers an owner with the reference fields, masks the identifier, and PATCHes only the given fields', async () => {
      const business = await created(t.api, referenceBusiness);
      const response = await t.api.post('/beneficial-owners', {
        customerId: business.id,
        roles: ['UBO', 'CONTROL_PERSON'],
        ownershipPercentage: 30,
        personalInfo: { ...grace, middleName: 'Brewster', idType: 'SSN', identifier: '123-45-6789', countryOfIssuance: 'US' },
      });
      expect(response.status).toBe(201);
      expect(response.body.personalInfo).toEqual({ ...grace, middleName: 'Brewster', idType: 'SSN', identifier: '•••••••6789', countryOfIssuance: 'US' });
      const owner = response.body;

      const patched = await t.api.patch(`/beneficial-owners/${owner.id}`, { roles: ['TRUSTEE'], personalInfo: { lastName: 'Hopper002', email: 'Grace@Acme.example' } });
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual({
        ...owner,
        roles: ['TRUSTEE'],
        personalInfo: { ...owner.personalInfo, lastName: 'Hopper002', email: 'grace@acme.example' },
        kycStatus: 'REJECTED',
        updatedAt: expect.any(String),
      });
      expect((await t.api.get(`/beneficial-owners/${owner.id}`)).body).toEqual(patched.body);
    });

    it('validates a PATCH listing every field, and answers 404 for a foreign owner', async () => {
      const business = await created(t.api, acmeFields);
      const owner = (await t.api.post('/beneficial-owners', { customerId: business.id, roles: ['DIRECTOR'], ownershipPercentage: 0, personalInfo: grace })).body;
      const bad = await t.api.patch(`/beneficial-owners/${owner.id}`, {
        roles: ['CEO'],
        ownershipPercentage: 101,
        personalInfo: { idType: 'PASSPORT', birthDate: 'soon' },
        extra: 1,
      });
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad)).toEqual(['extra', 'ownershipPercentage', 'personalInfo.birthDate', 'personalInfo.idType', 'roles']);
      const other = await t.newPlatform();
      const foreign = await other.api.patch(`/beneficial-owners/${owner.id}`, { ownershipPercentage: 50 });
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('REFERENCE_NOT_FOUND');
      expect((await t.api.get(`/beneficial-owners/${owner.id}`)).body.ownershipPercentage).toBe(0);
    });
  });

  describe('documents: holder and country, PUT and DELETE', () => {
    it('replaces a rejected document in place and reviews it again', async () => {
      const business = await created(t.api, acmeFields);
      const rejected = await postForm(t.api, '/documents', documentForm({ documentHolder: business.id, documentType: 'PASSPORT', country: 'US' }, 'blurry002.pdf'));
      expect(rejected.body.code).toBe('LOW_QUALITY');
      const id = rejected.body.details.documentId;
      const replaced = await putForm(
        t.api,
        `/documents/${id}`,
        documentForm({ documentType: 'NATIONAL_ID', country: 'MX', side: 'FRONT', documentNumber: 'X123', issuingAuthority: 'INE' }, 'clear.pdf'),
      );
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({
        id,
        documentHolder: business.id,
        documentType: 'NATIONAL_ID',
        country: 'MX',
        side: 'FRONT',
        documentNumber: 'X123',
        issuingAuthority: 'INE',
        fileName: 'clear.pdf',
        status: 'APPROVED',
      });
      expect(replaced.body.rejectionReason).toBeUndefined();
      expect((await t.api.get(`/documents/${id}`)).body).toEqual(replaced.body);
      expect((await t.api.get(`/documents?documentHolder=${business.id}`)).body.data.map((d: { id: string }) => d.id)).toEqual([id]);

      const bad = await putForm(t.api, `/documents/${id}`, documentForm({ documentType: 'PASSPORT', country: 'Mexico', side: 'TOP' }));
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad)).toEqual(['country', 'side']);
      const other = await t.newPlatform();
      expect((await putForm(other.api, `/documents/${id}`, documentForm({ documentType: 'PASSPORT', country: 'US' }))).status).toBe(404);
    });

    it('deletes a document not yet submitted for verification, and keeps one that was (409)', async () => {
      const customer = await created(t.api, adaFields);
      const upload = () => postForm(t.api, '/documents', documentForm({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'GB' }));
      const loose = (await upload()).body;
      const other = await t.newPlatform();
      const foreign = await other.api.delete(`/documents/${loose.id}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('REFERENCE_NOT_FOUND');
      const removed = await t.api.delete(`/documents/${loose.id}`);
      expect(removed.status).toBe(204);
      expect((await t.api.get(`/documents/${loose.id}`)).status).toBe(404);
      expect((await t.api.delete(`/documents/${loose.id}`)).status).toBe(404);

      const evidence = (await upload()).body;
      await t.api.post('/verifications', { customerId: customer.id });
      const kept = await t.api.delete(`/documents/${evidence.id}`);
      expect(kept.status).toBe(409);
      expect(kept.body.code).toBe('CONFLICT');
      expect((await t.api.get(`/documents/${evidence.id}`)).status).toBe(200);
    });
  });

  describe('kyc-link and bulk import shapes', () => {
    it('creates a KYC link without redirectUri (201, provider HOSTED)', async () => {
      const customer = await created(t.api, adaFields);
      const response = await t.api.post(`/customers/${customer.id}/kyc-link`, {});
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ kycUrl: expect.any(String), expiresAt: expect.any(String), provider: 'HOSTED' });
    });

    it('answers the bulk job with jobId, progress counts and row errors with a correlationId', async () => {
      const form = new FormData();
      const csv = 'customerType,platformCustomerId,fullName,birthDate\nINDIVIDUAL,b-1,Ada,1990-01-01\nINDIVIDUAL,b-2,Bad,1990-02-30\n';
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'people.csv');
      const response = await postForm(t.api, '/customers/bulk/csv', form);
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({ jobId: response.body.id, progress: { total: 2, processed: 2, successful: 1, failed: 1 } });
      expect(response.body.errors).toEqual([
        { correlationId: 'row-3', status: 400, code: 'INVALID_INPUT', message: expect.stringContaining('birthDate'), details: { row: 3, field: 'birthDate' } },
      ]);
    });
  });
});
