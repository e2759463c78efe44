import { eventually, startTestStack, TestStack } from '../support/test-stack';
import { acmeFields, adaFields, created, customersDatabase, WebhookReceiver } from './customers.support';

const EDD = { sourceOfWealthCategories: ['SALARY'], purposeOfAccount: 'P2P_TRANSFERS', annualIncomeRange: 'RANGE_100K_250K' };

describe('Customer verification: KYC/KYB suffix tables, webhooks, contact verification, KYC links', () => {
  let t: TestStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestStack();
    receiver = await WebhookReceiver.attach(t.api);
  });

  afterAll(async () => {
    await t?.stop();
    await receiver?.close();
  });

  const verify = (customerId: string) => t.api.post('/verifications', { customerId });

  describe('KYC for individuals: last 3 characters of fullName', () => {
    it.each([
      ['001', 'IN_PROGRESS', 'PENDING', ['CUSTOMER.KYC_PENDING']],
      ['002', 'REJECTED', 'REJECTED', ['CUSTOMER.KYC_PENDING', 'CUSTOMER.KYC_REJECTED']],
      ['003', 'RESOLVE_ERRORS', 'PENDING', ['CUSTOMER.KYC_PENDING']],
      ['789', 'IN_PROGRESS', 'APPROVED', ['CUSTOMER.KYC_PENDING', 'CUSTOMER.KYC_APPROVED']],
    ])(
      'suffix %s: verificationStatus %s, kycStatus %s, webhooks %j signed and carrying the customer as GET returns it',
      async (suffix, verificationStatus, kycStatus, webhooks) => {
        const customer = await created(t.api, { ...adaFields, fullName: `Test Person ${suffix}` });
        const response = await verify(customer.id);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ id: expect.stringMatching(/^Verification:/), customerId: customer.id, verificationStatus, kycStatus });
        const current = (await t.api.get(`/customers/${customer.id}`)).body;
        expect(current.kycStatus).toBe(kycStatus);

        const received = await receiver.waitFor(customer.id, webhooks);
        // One webhook per status transition, each verified with the platform's public key.
        expect(received.map((r) => r.payload.type).sort()).toEqual([...webhooks].sort());
        expect(received.every((r) => r.verified)).toBe(true);
        const last = received.find((r) => r.payload.type === webhooks[webhooks.length - 1])!;
        expect(last.payload.data).toEqual(current);
      },
    );

    it('003: RESOLVE_ERRORS lists MISSING_FIELD on each edd.* field; after PATCH the retry approves', async () => {
      const customer = await created(t.api, { ...adaFields, fullName: 'Needs More 003', purposeOfAccount: 'P2P_TRANSFERS' });
      const first = await verify(customer.id);
      expect(first.body.verificationStatus).toBe('RESOLVE_ERRORS');
      expect(first.body.errors).toEqual([
        { resourceId: customer.id, type: 'MISSING_FIELD', field: 'edd.sourceOfWealthCategories', reason: expect.any(String) },
        { resourceId: customer.id, type: 'MISSING_FIELD', field: 'edd.annualIncomeRange', reason: expect.any(String) },
      ]);
      const patched = await t.api.patch(`/customers/${customer.id}`, { customerType: 'INDIVIDUAL', ...EDD });
      expect(patched.status).toBe(200);
      const retry = await verify(customer.id);
      expect(retry.body).toMatchObject({ verificationStatus: 'IN_PROGRESS', kycStatus: 'APPROVED' });
      expect(retry.body.errors).toEqual([]);
      await receiver.waitFor(customer.id, ['CUSTOMER.KYC_APPROVED']);
    });

    it('keeps final states: a rejected customer stays rejected, an approved one approved, with no new webhook', async () => {
      const rejected = await created(t.api, { ...adaFields, fullName: 'Refused 002' });
      await verify(rejected.id);
      expect((await verify(rejected.id)).body).toMatchObject({ verificationStatus: 'REJECTED', kycStatus: 'REJECTED' });
      const approved = await created(t.api, adaFields);
      await verify(approved.id);
      expect((await verify(approved.id)).body).toMatchObject({ verificationStatus: 'IN_PROGRESS', kycStatus: 'APPROVED' });
      await receiver.waitFor(approved.id, ['CUSTOMER.KYC_APPROVED']);
      // No wait for a webhook that should not come: a later customer's approval is a marker. Events
      // reach the webhooks service in the order they were written, so once the marker has its
      // delivery, a second approval of the first customer would have had one too.
      const marker = await created(t.api, adaFields);
      await verify(marker.id);
      const approvals = (resourceId: string) => t.api.get(`/webhooks/deliveries?resourceId=${encodeURIComponent(resourceId)}&type=CUSTOMER.KYC_APPROVED`);
      await eventually(async () => ((await approvals(marker.id)).body.data.length > 0 ? true : undefined));
      expect((await approvals(approved.id)).body.data).toHaveLength(1);
      expect(receiver.received.filter((r) => r.payload.data.id === approved.id && r.payload.type === 'CUSTOMER.KYC_APPROVED')).toHaveLength(1);
    });

    it('asks for the fullName it keys on when it is missing', async () => {
      const customer = await created(t.api, { customerType: 'INDIVIDUAL' });
      const response = await verify(customer.id);
      expect(response.body).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS', errors: [{ resourceId: customer.id, type: 'MISSING_FIELD', field: 'fullName' }] });
    });
  });

  describe('KYB for businesses: last 3 digits of businessInfo.registrationNumber', () => {
    it.each([
      ['REG-77001', 'IN_PROGRESS', 'PENDING', ['CUSTOMER.KYB_PENDING']],
      ['REG-77002', 'REJECTED', 'REJECTED', ['CUSTOMER.KYB_PENDING', 'CUSTOMER.KYB_REJECTED']],
      ['REG-77123', 'IN_PROGRESS', 'APPROVED', ['CUSTOMER.KYB_PENDING', 'CUSTOMER.KYB_APPROVED']],
    ])('%s: verificationStatus %s, kybStatus %s, KYB webhooks only', async (registrationNumber, verificationStatus, kybStatus, webhooks) => {
      const customer = await created(t.api, { ...acmeFields, businessInfo: { ...acmeFields.businessInfo, registrationNumber } });
      const response = await verify(customer.id);
      expect(response.body).toMatchObject({ verificationStatus, kybStatus });
      expect(response.body.kycStatus).toBeUndefined();
      const received = await receiver.waitFor(customer.id, webhooks);
      expect(received.map((r) => r.payload.type).sort()).toEqual([...webhooks].sort());
      expect(received.every((r) => r.verified && r.payload.type.startsWith('CUSTOMER.KYB_'))).toBe(true);
    });
  });

  it("answers 404 USER_NOT_FOUND for another platform's customer and validates the body", async () => {
    const customer = await created(t.api, adaFields);
    const other = await t.newPlatform();
    expect((await other.api.post('/verifications', { customerId: customer.id })).body.code).toBe('USER_NOT_FOUND');
    const bad = await t.api.post('/verifications', {});
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors[0].field).toBe('customerId');
  });

  describe('contact verification (sandbox: email local part ending in +verify, phone ending in 0000, code 123456 as in the reference sandbox)', () => {
    it.each([
      ['neither channel', { email: 'plain@example.com', phoneNumber: '+14155550123' }, undefined],
      ['the email only', { email: 'ada+verify@example.com', phoneNumber: '+14155550123' }, { email: 'PENDING' }],
      ['the phone only', { email: 'plain@example.com', phoneNumber: '+14155550000' }, { phone: 'PENDING' }],
      ['both channels', { email: 'ada+verify@example.com', phoneNumber: '+14155550000' }, { email: 'PENDING', phone: 'PENDING' }],
    ])('requires %s', async (_, contact, expected) => {
      const customer = await created(t.api, { ...adaFields, ...contact });
      expect(customer.contactVerification).toEqual(expected);
    });

    it('sends, refuses a wrong code without change, confirms the right one, rate limits re-sends', async () => {
      const customer = await created(t.api, { ...adaFields, email: 'ada+verify@example.com', phoneNumber: '+14155550000' });
      const sent = await t.api.post(`/customers/${customer.id}/verify-email`);
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ customerId: customer.id, channel: 'email', status: 'PENDING', expiresAt: expect.any(String), resendAvailableAt: expect.any(String) });

      const again = await t.api.post(`/customers/${customer.id}/verify-email`);
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(again.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });

      const wrong = await t.api.post(`/customers/${customer.id}/verify-email/confirm`, { code: '654321' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'INVALID_VERIFICATION_CODE', errors: [{ field: 'code' }] } });
      expect((await t.api.get(`/customers/${customer.id}`)).body.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });

      const malformed = await t.api.post(`/customers/${customer.id}/verify-email/confirm`, { code: 'abc' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.details.errors[0]).toMatchObject({ field: 'code', constraint: { pattern: expect.any(String) } });

      const confirmed = await t.api.post(`/customers/${customer.id}/verify-email/confirm`, { code: '123456' });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });

      // Once the interval has passed a re-POST sends a fresh code.
      await t.api.post(`/customers/${customer.id}/verify-phone`);
      await customersDatabase(t).query(`UPDATE contact_code SET sent_at = sent_at - interval '31 seconds' WHERE customer_id = $1`, [customer.id]);
      expect((await t.api.post(`/customers/${customer.id}/verify-phone`)).status).toBe(200);
      const phone = await t.api.post(`/customers/${customer.id}/verify-phone/confirm`, { code: '123456' });
      expect(phone.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });
    });

    it('refuses a confirm before any code was sent, and an expired code', async () => {
      const customer = await created(t.api, { ...adaFields, email: 'late+verify@example.com' });
      expect((await t.api.post(`/customers/${customer.id}/verify-email/confirm`, { code: '123456' })).body.code).toBe('INVALID_INPUT');
      await t.api.post(`/customers/${customer.id}/verify-email`);
      await customersDatabase(t).query(`UPDATE contact_code SET expires_at = now() - interval '1 second' WHERE customer_id = $1`, [customer.id]);
      const expired = await t.api.post(`/customers/${customer.id}/verify-email/confirm`, { code: '123456' });
      expect(expired.status).toBe(400);
      expect(expired.body.message).toMatch(/expired/);
    });

    it('answers 409 for a channel the provider does not require, and 404 for a foreign customer', async () => {
      const customer = await created(t.api, { ...adaFields, email: 'plain@example.com' });
      for (const path of ['verify-email', 'verify-phone']) {
        const response = await t.api.post(`/customers/${customer.id}/${path}`);
        expect(response.status).toBe(409);
        expect(response.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'CONTACT_VERIFICATION_NOT_REQUIRED' } });
      }
      const other = await t.newPlatform();
      expect((await other.api.post(`/customers/${customer.id}/verify-email`)).status).toBe(404);
    });

    // (An email change of a customer with a wallet is a signed action of the wallet work; the phone follows the same rule unsigned.)
    it('asks to verify again when a required phone number changes', async () => {
      const customer = await created(t.api, { ...adaFields, phoneNumber: '+14155550000' });
      await t.api.post(`/customers/${customer.id}/verify-phone`);
      await t.api.post(`/customers/${customer.id}/verify-phone/confirm`, { code: '123456' });
      const changed = await t.api.patch(`/customers/${customer.id}`, { customerType: 'INDIVIDUAL', phoneNumber: '+14155560000' });
      expect(changed.status).toBe(200);
      expect(changed.body.contactVerification).toEqual({ phone: 'PENDING' });
      const dropped = await t.api.patch(`/customers/${customer.id}`, { customerType: 'INDIVIDUAL', phoneNumber: '+14155560123' });
      expect(dropped.body.contactVerification).toBeUndefined();
    });
  });

  describe('POST /customers/{customerId}/kyc-link', () => {
    it('issues a fresh single-use link each call, without invalidating earlier ones', async () => {
      const customer = await created(t.api, adaFields);
      const first = await t.api.post(`/customers/${customer.id}/kyc-link`, { redirectUri: 'https://platform.example/done' });
      const second = await t.api.post(`/customers/${customer.id}/kyc-link`, { redirectUri: 'https://platform.example/done' });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        kycUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/kyc\/[A-Za-z0-9_-]{43}$/),
        expiresAt: expect.any(String),
        provider: 'HOSTED',
        token: expect.any(String),
      });
      expect(first.body.kycUrl.endsWith(first.body.token)).toBe(true);
      expect(second.body.token).not.toBe(first.body.token);
      expect(new Date(first.body.expiresAt).getTime()).toBeGreaterThan(Date.now());
      for (const link of [first.body, second.body]) expect((await fetch(link.kycUrl)).status).toBe(200);
    });

    it('answers 409 until every required contact channel is VERIFIED', async () => {
      const customer = await created(t.api, { ...adaFields, email: 'kyc+verify@example.com' });
      const refused = await t.api.post(`/customers/${customer.id}/kyc-link`, { redirectUri: 'https://platform.example/done' });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'CONTACT_NOT_VERIFIED', unverifiedChannels: ['email'] } });
      await t.api.post(`/customers/${customer.id}/verify-email`);
      await t.api.post(`/customers/${customer.id}/verify-email/confirm`, { code: '123456' });
      expect((await t.api.post(`/customers/${customer.id}/kyc-link`, { redirectUri: 'https://platform.example/done' })).status).toBe(201);
    });

    it('validates redirectUri and answers 404 for a foreign customer', async () => {
      const customer = await created(t.api, adaFields);
      const bad = await t.api.post(`/customers/${customer.id}/kyc-link`, { redirectUri: 'javascript:alert(1)' });
      expect(bad.status).toBe(400);
      expect(bad.body.details.errors[0]).toMatchObject({ field: 'redirectUri', constraint: { format: 'url' } });
      const other = await t.newPlatform();
      expect((await other.api.post(`/customers/${customer.id}/kyc-link`, { redirectUri: 'https://x.example' })).status).toBe(404);
    });

    it('shows clear pages for a used, an expired and an unknown link', async () => {
      const customer = await created(t.api, adaFields);
      const used = (await t.api.post(`/customers/${customer.id}/kyc-link`, { redirectUri: 'https://platform.example/done' })).body;
      const completion = await fetch(used.kycUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      expect(completion.status).toBe(303);
      expect(completion.headers.get('location')).toBe('https://platform.example/done');
      expect((await t.api.get(`/customers/${customer.id}`)).body.kycStatus).toBe('APPROVED');
      const usedPage = await fetch(used.kycUrl);
      expect(usedPage.status).toBe(410);
      expect(await usedPage.text()).toMatch(/already been used/);
      const replay = await fetch(used.kycUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      expect(replay.status).toBe(410);

      const expiring = (await t.api.post(`/customers/${customer.id}/kyc-link`, { redirectUri: 'https://platform.example/done' })).body;
      await customersDatabase(t).query(`UPDATE kyc_link SET expires_at = now() - interval '1 second' WHERE customer_id = $1 AND used_at IS NULL`, [customer.id]);
      const expiredPage = await fetch(expiring.kycUrl);
      expect(expiredPage.status).toBe(410);
      expect(await expiredPage.text()).toMatch(/expired/);

      const unknown = await fetch(expiring.kycUrl.replace(/[^/]+$/, 'x'.repeat(43)));
      expect(unknown.status).toBe(404);
      expect(await unknown.text()).toMatch(/not valid/);
    });
  });
});
