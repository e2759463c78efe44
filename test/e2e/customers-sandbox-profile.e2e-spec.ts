import { ApiClient } from '../support/api-client';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';
import { acmeFields, adaFields, created, postForm } from './customers.support';

/**
 * The per-platform sandbox profile (`sandboxProfile` on `PATCH /config`, a Paykit extension):
 * SPEC (default) keeps SPEC.md's tables; HOSTED follows the hosted sandbox's current guides
 * (lightsparkdev/grid-api `mintlify/snippets/sandbox-verification.mdx` and
 * `snippets/kyc/kyb-sandbox-suffixes.mdx`).
 */
describe('Sandbox profile: SPEC (default) and HOSTED (the hosted sandbox of today)', () => {
  let t: TestStack;
  let spec: ApiClient;
  let hosted: ApiClient;

  beforeAll(async () => {
    t = await startTestStack();
    spec = t.api;
    hosted = (await t.newPlatform()).api;
    const patched = await hosted.patch('/config', { sandboxProfile: 'HOSTED' });
    expect(patched.status).toBe(200);
  });

  afterAll(async () => {
    await t?.stop();
  });

  const verify = (api: ApiClient, customerId: string) => api.post('/verifications', { customerId });

  describe('configuration', () => {
    it('GET /config shows SPEC by default and HOSTED once set; a bad value is a 400 naming the field and changes nothing', async () => {
      const fresh = (await t.newPlatform()).api;
      expect((await fresh.get('/config')).body.sandboxProfile).toBe('SPEC');
      const bad = await fresh.patch('/config', { sandboxProfile: 'LIVE' });
      expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_INPUT']);
      expect(bad.body.details.errors).toEqual([expect.objectContaining({ field: 'sandboxProfile' })]);
      expect((await fresh.get('/config')).body.sandboxProfile).toBe('SPEC');
      const config = (await hosted.get('/config')).body;
      expect(config.sandboxProfile).toBe('HOSTED');
      // The hosted sandbox requires a name only: a customer without nationality is ready to transact.
      for (const currency of config.supportedCurrencies) expect(currency.providerRequiredCustomerFields).toEqual(['FULL_NAME']);
      const usd = (await spec.get('/config')).body.supportedCurrencies.find((c: { currencyCode: string }) => c.currencyCode === 'USD');
      expect(usd.providerRequiredCustomerFields).toEqual(expect.arrayContaining(['NATIONALITY', 'BIRTH_DATE']));
      // Back to SPEC: SPEC's fields again.
      expect((await fresh.patch('/config', { sandboxProfile: 'HOSTED' })).body.sandboxProfile).toBe('HOSTED');
      const back = await fresh.patch('/config', { sandboxProfile: 'SPEC' });
      expect(back.body.sandboxProfile).toBe('SPEC');
      expect(back.body.supportedCurrencies.find((c: { currencyCode: string }) => c.currencyCode === 'USD').providerRequiredCustomerFields).toContain('NATIONALITY');
    });
  });

  describe('individuals: kycStatus at creation, then POST /verifications', () => {
    it.each([
      // profile, suffix, kycStatus at creation, verification answer (status, verificationStatus, kycStatus after)
      ['SPEC', '', 'PENDING', 200, 'IN_PROGRESS', 'APPROVED'],
      ['SPEC', '001', 'PENDING', 200, 'IN_PROGRESS', 'PENDING'],
      ['SPEC', '002', 'PENDING', 200, 'REJECTED', 'REJECTED'],
      ['SPEC', '003', 'PENDING', 200, 'RESOLVE_ERRORS', 'PENDING'],
      ['HOSTED', '', 'APPROVED', 400, undefined, 'APPROVED'],
      ['HOSTED', '001', 'PENDING', 200, 'RESOLVE_ERRORS', 'PENDING'],
      ['HOSTED', '002', 'REJECTED', 400, undefined, 'REJECTED'],
      ['HOSTED', '003', 'UNVERIFIED', 200, 'RESOLVE_ERRORS', 'UNVERIFIED'],
    ])('%s, fullName suffix "%s": created %s; verification answers %s %s, kycStatus %s', async (profile, suffix, atCreation, status, verificationStatus, after) => {
      const api = profile === 'HOSTED' ? hosted : spec;
      const customer = await created(api, { customerType: 'INDIVIDUAL', fullName: `Jack Doe ${suffix}`.trim() });
      expect(customer.kycStatus).toBe(atCreation);
      const response = await verify(api, customer.id);
      expect(response.status).toBe(status);
      if (verificationStatus) expect(response.body.verificationStatus).toBe(verificationStatus);
      else expect(response.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'customerId' })] } });
      expect((await api.get(`/customers/${customer.id}`)).body.kycStatus).toBe(after);
    });

    it('HOSTED 001: RESOLVE_ERRORS lists every missing field and the identity document; complete, it waits on manual review (PENDING_MANUAL_REVIEW, still PENDING)', async () => {
      const customer = await created(hosted, { customerType: 'INDIVIDUAL', fullName: 'Jane Doe 001', birthDate: '1990-01-15', nationality: 'US' });
      const first = await verify(hosted, customer.id);
      expect(first.body).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS', kycStatus: 'PENDING' });
      expect(first.body.errors).toEqual([
        { resourceId: customer.id, type: 'MISSING_FIELD', field: 'idType', reason: expect.any(String) },
        { resourceId: customer.id, type: 'MISSING_FIELD', field: 'identifier', reason: expect.any(String) },
        { resourceId: customer.id, type: 'MISSING_FIELD', field: 'address', reason: expect.any(String) },
        { resourceId: customer.id, type: 'MISSING_IDENTITY_DOCUMENT', acceptedDocumentTypes: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'], reason: expect.any(String) },
      ]);
      await completeIndividual(customer.id);
      const second = await verify(hosted, customer.id);
      expect(second.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW', kycStatus: 'PENDING', errors: [] });
      expect((await hosted.get(`/verifications?customerId=${encodeURIComponent(customer.id)}&verificationStatus=PENDING_MANUAL_REVIEW`)).body.data).toHaveLength(1);
    });

    it('HOSTED 003: complete, it answers RESOLVE_ERRORS with POOR_QUALITY_DOCUMENT on the document (a correctable provider rejection)', async () => {
      const customer = await created(hosted, { customerType: 'INDIVIDUAL', fullName: 'Jane Doe 003', birthDate: '1990-01-15', nationality: 'US' });
      const documentId = await completeIndividual(customer.id);
      const response = await verify(hosted, customer.id);
      expect(response.body).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS', kycStatus: 'UNVERIFIED' });
      expect(response.body.errors).toEqual([{ resourceId: documentId, type: 'POOR_QUALITY_DOCUMENT', reason: expect.any(String) }]);
    });

    async function completeIndividual(customerId: string): Promise<string> {
      const patched = await hosted.patch(`/customers/${customerId}`, {
        customerType: 'INDIVIDUAL',
        idType: 'SSN',
        identifier: '111-22-3333',
        address: { line1: '123 Main St', city: 'Seattle', state: 'WA', postalCode: '98101', country: 'US' },
      });
      expect(patched.status).toBe(200);
      return uploadDocument(customerId, 'PASSPORT');
    }
  });

  async function uploadDocument(documentHolder: string, documentType: string): Promise<string> {
    const form = new FormData();
    form.append('documentHolder', documentHolder);
    form.append('documentType', documentType);
    form.append('country', 'US');
    // A minimal PDF (the bytes must match the type).
    form.append('file', new Blob([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'document.pdf');
    const uploaded = await postForm(hosted, '/documents', form);
    expect(uploaded.status).toBe(201);
    return uploaded.body.id;
  }

  describe('businesses (KYB) and their beneficial owners', () => {
    it.each([
      // profile, registration number, kybStatus at creation, verification (verificationStatus, kybStatus), owners' kycStatus (lastName suffix 001, 002, other)
      ['SPEC', 'REG-000123', 'PENDING', 'IN_PROGRESS', 'APPROVED', ['PENDING', 'REJECTED', 'APPROVED'], ['PENDING', 'REJECTED', 'APPROVED']],
      ['SPEC', 'REG-000002', 'PENDING', 'REJECTED', 'REJECTED', ['PENDING', 'REJECTED', 'APPROVED'], ['PENDING', 'REJECTED', 'APPROVED']],
      ['SPEC', 'REG-000001', 'PENDING', 'IN_PROGRESS', 'PENDING', ['PENDING', 'REJECTED', 'APPROVED'], ['PENDING', 'REJECTED', 'APPROVED']],
      ['HOSTED', 'REG-000123', 'UNVERIFIED', 'APPROVED', 'APPROVED', ['PENDING', 'PENDING', 'PENDING'], ['PENDING', 'REJECTED', 'APPROVED']],
      ['HOSTED', 'REG-000002', 'UNVERIFIED', 'REJECTED', 'REJECTED', ['PENDING', 'PENDING', 'PENDING'], ['PENDING', 'REJECTED', 'APPROVED']],
      ['HOSTED', 'REG-000001', 'UNVERIFIED', 'PENDING_MANUAL_REVIEW', 'PENDING', ['PENDING', 'PENDING', 'PENDING'], ['PENDING', 'PENDING', 'PENDING']],
      ['HOSTED', 'REG-000003', 'UNVERIFIED', 'PENDING_MANUAL_REVIEW', 'PENDING', ['PENDING', 'PENDING', 'PENDING'], ['PENDING', 'PENDING', 'PENDING']],
    ])(
      '%s, registration number %s: created %s; verified %s / %s; owners %j on registration, %j after',
      async (profile, registrationNumber, atCreation, verificationStatus, kybStatus, ownersBefore, ownersAfter) => {
        const api = profile === 'HOSTED' ? hosted : spec;
        const business = await created(api, { ...acmeFields, businessInfo: { ...acmeFields.businessInfo, registrationNumber } });
        expect(business.kybStatus).toBe(atCreation);
        const owners: string[] = [];
        for (const lastName of ['Owner 001', 'Owner 002', 'Owner 789']) {
          const owner = await api.post('/beneficial-owners', {
            customerId: business.id,
            roles: ['UBO'],
            ownershipPercentage: 30,
            personalInfo: { firstName: 'Pat', lastName, birthDate: '1980-02-02', nationality: 'US' },
          });
          expect(owner.status).toBe(201);
          owners.push(owner.body.id);
        }
        const statuses = async () => Promise.all(owners.map(async (id) => (await api.get(`/beneficial-owners/${id}`)).body.kycStatus));
        expect(await statuses()).toEqual(ownersBefore);
        if (profile === 'HOSTED' && ['001', '003'].includes(registrationNumber.slice(-3))) {
          // Normal validation: a legal presence document is missing until uploaded.
          const first = await verify(api, business.id);
          expect(first.body).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS', kybStatus: 'UNVERIFIED' });
          expect(first.body.errors).toEqual([expect.objectContaining({ type: 'MISSING_LEGAL_PRESENCE_DOCUMENT' })]);
          await uploadDocument(business.id, 'CERTIFICATE_OF_INCORPORATION');
        }
        const response = await verify(api, business.id);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ verificationStatus, kybStatus });
        expect(await statuses()).toEqual(ownersAfter);
        if (profile === 'HOSTED' && (kybStatus === 'APPROVED' || kybStatus === 'REJECTED')) {
          // Decided for good: a further verification is a 400; an owner registered now is decided at once.
          expect((await verify(api, business.id)).status).toBe(400);
          const late = await api.post('/beneficial-owners', {
            customerId: business.id,
            roles: ['DIRECTOR'],
            personalInfo: { firstName: 'Lee', lastName: 'Late 002', birthDate: '1980-02-02', nationality: 'US' },
          });
          expect(late.body.kycStatus).toBe('REJECTED');
        }
      },
    );

    it('HOSTED 003 without owners or data: every missing piece is listed', async () => {
      const business = await created(hosted, { customerType: 'BUSINESS', businessInfo: { legalName: 'Bare Co', registrationNumber: 'REG-000003' } });
      const response = await verify(hosted, business.id);
      expect(response.body.verificationStatus).toBe('RESOLVE_ERRORS');
      expect(response.body.errors.map((e: { type: string; field?: string }) => e.field ?? e.type)).toEqual([
        'businessInfo.taxId',
        'address',
        'MISSING_LEGAL_PRESENCE_DOCUMENT',
        'MISSING_BENEFICIAL_OWNER',
      ]);
    });
  });

  describe('readiness to transact (the provider-required customer fields)', () => {
    it.each([
      ['SPEC', 400, 'MISSING_MANDATORY_USER_INFO'],
      ['HOSTED', 201, undefined],
    ])('%s: a customer without nationality, created with no suffix, quoting USD answers %s', async (profile, status, code) => {
      const api = profile === 'HOSTED' ? hosted : spec;
      const { nationality: _, ...withoutNationality } = adaFields;
      const customer = await created(api, { ...withoutNationality, fullName: 'Jack Doe', phoneNumber: undefined });
      const payee = await api.post('/customers/external-accounts', {
        customerId: customer.id,
        currency: 'MXN',
        accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '014027000005555601', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Carlos García' } },
      });
      expect(payee.status).toBe(201);
      const quote = await api.post('/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer.id },
        destination: { destinationType: 'ACCOUNT', accountId: payee.body.id },
        lockedCurrencyAmount: 1000,
        lockedCurrencySide: 'SENDING',
      });
      // SPEC: NATIONALITY is missing (and the customer would still be PENDING); HOSTED: approved at creation, a name is enough.
      expect([quote.status, quote.body.code]).toEqual([status, code]);
    });
  });

  /**
   * The official sample front end's payout flow (lightsparkdev/grid-api `samples/frontend`, through
   * its Kotlin backend `samples/kotlin`), request by request with the bodies its code sends to the
   * API: the default Mexico (MXN) destination, the USD realtime-funded quote, the sandbox funding.
   */
  describe('the official sample payout flow against a HOSTED platform', () => {
    it('customer, external account, quote, sandbox funding, completion', async () => {
      // 1. CreateCustomer.tsx's DEFAULT_BODY, as Customers.kt builds it (no nationality).
      const customer = await hosted.post('/customers', {
        customerType: 'INDIVIDUAL',
        platformCustomerId: 'cust_k3j9x0q2',
        fullName: 'Jack Doe',
        email: 'jack.doe+k3j9x0q2@gmail.com',
        birthDate: '1992-03-25',
        address: { country: 'US', line1: '123 Pine Street', postalCode: '98101', line2: 'Unit 501', city: 'Seattle', state: 'WA' },
      });
      expect(customer.status).toBe(201);
      expect(customer.body.kycStatus).toBe('APPROVED');
      const customerId: string = customer.body.id;

      // 2. CreateExternalAccount.tsx's MX config, as ExternalAccounts.kt builds it: the beneficiary
      // is read from accountInfo (the front end sends it beside it), so the default one is sent.
      const account = await hosted.post('/customers/external-accounts', {
        accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '014027000005555601', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Account Holder' } },
        currency: 'MXN',
        customerId,
        platformAccountId: 'acct_p8d2m4z1',
      });
      expect(account.status).toBe(201);
      const accountId: string = account.body.id;

      // 3. CreateQuote.tsx first asks the corridor's minimum, then posts the quote (Quotes.kt).
      const rates = await hosted.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=1000');
      expect(rates.status).toBe(200);
      const mins: number[] = (rates.body.data ?? []).map((r: { minSendingAmount?: number }) => r.minSendingAmount ?? 0);
      const minSendingAmount = mins.length ? Math.max(...mins) : 0;
      const lockedCurrencyAmount = Math.max(1000, minSendingAmount ? Math.ceil(minSendingAmount * 1.05) : 0);
      const quote = await hosted.post('/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId },
        destination: { destinationType: 'ACCOUNT', accountId },
        lockedCurrencyAmount,
        lockedCurrencySide: 'SENDING',
        purposeOfPayment: 'GIFT',
      });
      expect(quote.status).toBe(201);
      expect(quote.body).toMatchObject({ status: 'PENDING', paymentInstructions: [expect.anything()] });
      const quoteId: string = quote.body.quoteId ?? quote.body.id;

      // 4. SandboxFund.tsx: { quoteId, currencyCode: 'USD' } (Sandbox.kt sends no currencyAmount).
      const sent = await hosted.post('/sandbox/send', { quoteId, currencyCode: 'USD' });
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ type: 'OUTGOING', quoteId });

      // Completion, on the sandbox clock.
      const final = await eventually(async () => {
        await advanceClock(hosted, 60);
        const transaction = await hosted.get(`/transactions/${sent.body.id}`);
        return ['COMPLETED', 'FAILED'].includes(transaction.body.status) ? transaction.body : undefined;
      }, 20_000);
      expect(final).toMatchObject({ status: 'COMPLETED', customerId, platformCustomerId: 'cust_k3j9x0q2' });
    });
  });
});
