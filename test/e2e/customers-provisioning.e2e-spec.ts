/**
 * @distributed customers -> payments and wallet-auth: events through JetStream, redelivered copies handled once
 */
import { CallerContext, contractVersion, CUSTOMERS_EVENTS, DomainEvent, PAYMENTS_EVENTS, PAYMENTS_SUBJECTS, uuidv7, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { CredentialsService } from '../../apps/gateway/src/auth/credentials.service';
import { ApiClient } from '../support/api-client';
import { eventually, startTestStack, TestStack } from '../support/test-stack';
import { postForm } from './customers.support';

/** The customer's provisioning once READY (polled: it follows payments' and wallet-auth's events). */
async function readyProvisioning(api: ApiClient, customerId: string): Promise<any> {
  return eventually(async () => {
    const response = await api.get(`/customers/${customerId}/provisioning`);
    expect(response.status).toBe(200);
    return response.body.status === 'READY' ? response.body : undefined;
  }, 30_000);
}

describe('Ready means ready: GET /customers/{customerId}/provisioning', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack();
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('is READY only once the accounts and the embedded wallet with its EMAIL_OTP credential all exist', async () => {
    const customer = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Mary Somerville', email: 'mary@example.com' });
    expect(customer.status).toBe(201);
    const provisioning = await readyProvisioning(t.api, customer.body.id);
    expect(provisioning).toEqual({
      customerId: customer.body.id,
      status: 'READY',
      internalAccounts: 'READY',
      embeddedWallet: 'READY',
      readyAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    // No polling from here: READY promises all of it is there.
    const accounts = await t.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`);
    const types = accounts.body.data.map((account: any) => account.type);
    expect(types).toContain('EMBEDDED_WALLET');
    expect(types.filter((type: string) => type !== 'EMBEDDED_WALLET').length).toBeGreaterThan(0);
    const wallet = accounts.body.data.find((account: any) => account.type === 'EMBEDDED_WALLET');
    const credentials = await t.api.get(`/auth/credentials?accountId=${encodeURIComponent(wallet.id)}`);
    expect(credentials.body.data).toEqual([expect.objectContaining({ type: 'EMAIL_OTP' })]);
    const holding = accounts.body.data.find((account: any) => account.type !== 'EMBEDDED_WALLET');
    expect((await t.api.post(`/sandbox/internal-accounts/${holding.id}/fund`, { amount: 100 })).status).toBe(200);
  });

  it('needs no wallet for a customer without an email, and owes one again once an email arrives', async () => {
    const customer = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Emmy Noether' });
    expect(await readyProvisioning(t.api, customer.body.id)).toMatchObject({ status: 'READY', internalAccounts: 'READY', embeddedWallet: 'NOT_REQUIRED' });
    const accounts = await t.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`);
    expect(accounts.body.data.map((account: any) => account.type)).not.toContain('EMBEDDED_WALLET');

    const patched = await t.api.patch(`/customers/${customer.body.id}`, { customerType: 'INDIVIDUAL', email: 'emmy@example.com' });
    expect(patched.status).toBe(200);
    const withWallet = await eventually(async () => {
      const response = await t.api.get(`/customers/${customer.body.id}/provisioning`);
      return response.body.embeddedWallet === 'READY' ? response.body : undefined;
    }, 30_000);
    expect(withWallet).toMatchObject({ status: 'READY', internalAccounts: 'READY' });
    const after = await t.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&type=EMBEDDED_WALLET`);
    expect(after.body.data).toHaveLength(1);
  });

  it("answers an unknown or another platform's customer 404 USER_NOT_FOUND, and funding an account that does not exist 404", async () => {
    const customer = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Sophie Germain' });
    const other = await t.newPlatform();
    for (const id of [customer.body.id, 'Customer:00000000-0000-7000-8000-000000000000']) {
      const response = await other.api.get(`/customers/${id}/provisioning`);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    }
    const funded = await t.api.post('/sandbox/internal-accounts/InternalAccount:00000000-0000-7000-8000-000000000000/fund', { amount: 100 });
    expect(funded.status).toBe(404);
    expect(funded.body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
  });

  it('a bulk import reports its ready customers beside the ones it created', async () => {
    const csv = [
      'customerType,platformCustomerId,fullName,email',
      'INDIVIDUAL,ready-1,Ada Lovelace,ada-ready@example.com',
      'INDIVIDUAL,ready-2,Alan Turing,',
      'PERSON,ready-3,Nobody,',
    ].join('\n');
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'ready.csv');
    const job = await postForm(t.api, '/customers/bulk/csv', form);
    expect(job.status).toBe(202);
    expect(job.body).toMatchObject({ status: 'COMPLETED', progress: { total: 3, processed: 3, successful: 2, failed: 1, ready: expect.any(Number) } });
    expect(job.body.progress.ready).toBeLessThanOrEqual(2);
    const done = await eventually(async () => {
      const response = await t.api.get(`/customers/bulk/jobs/${job.body.id}`);
      return response.body.progress.ready === 2 ? response.body : undefined;
    }, 30_000);
    expect(done.progress).toEqual({ total: 3, processed: 3, successful: 2, failed: 1, ready: 2 });
    for (const platformCustomerId of ['ready-1', 'ready-2']) {
      const [imported] = (await t.api.get(`/customers?platformCustomerId=${platformCustomerId}`)).body.data;
      expect((await t.api.get(`/customers/${imported.id}/provisioning`)).body.status).toBe('READY');
    }
  });

  it('provisions a burst of customers once each, however often the bus delivers their events again', async () => {
    const platformId = (await t.stack.http.get(CredentialsService).listPlatforms())[0].id;
    const ctx: CallerContext = { platformId, environment: 'sandbox', requestId: 'provisioning-redelivery' };
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: `Burst Customer ${i}`, email: `burst-${i}@example.com` })),
    );
    const customers: Array<{ id: string; email: string; umaAddress: string }> = created.map((response) => response.body);
    for (const customer of customers) await readyProvisioning(t.api, customer.id);
    const accountsOf = async (customerId: string) =>
      (await t.stack.runtime.client.request(PAYMENTS_SUBJECTS.listInternalAccounts, { owner: 'CUSTOMER', customerId, limit: 100 }, ctx)).data;
    const before = new Map<string, number>();
    for (const customer of customers) before.set(customer.id, (await accountsOf(customer.id)).length);

    // The bus delivers again what it delivered (at least once): each event twice more, both copies in one batch.
    const event = (subject: string, resourceId: string, data: unknown): DomainEvent => ({
      eventId: uuidv7(),
      subject,
      occurredAt: new Date().toISOString(),
      platformId,
      schemaVersion: contractVersion(subject),
      resourceId,
      data,
    });
    const again: DomainEvent[] = [];
    for (const customer of customers) {
      const wallet = (await accountsOf(customer.id)).find((account) => account.type === 'EMBEDDED_WALLET')!;
      again.push(event(CUSTOMERS_EVENTS.customerCreated, customer.id, customer));
      again.push(
        event(PAYMENTS_EVENTS.customerAccountsProvisioned, customer.id, {
          customerId: customer.id,
          accountIds: [wallet.id],
          walletAccountId: wallet.id,
          walletEmail: customer.email,
        }),
      );
    }
    const copies = new Set(again.map((copy) => copy.eventId));
    await Promise.all([...again, ...again].map((copy) => t.stack.runtime.eventBus.publish(copy)));
    // Consumers take each subject's events in stream order: a customer created after the copies is ready after them.
    const marker = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Marker Customer', email: 'marker@example.com' });
    await readyProvisioning(t.api, marker.body.id);

    for (const customer of customers) {
      const accounts = await accountsOf(customer.id);
      expect(accounts).toHaveLength(before.get(customer.id)!);
      const wallet = accounts.find((account) => account.type === 'EMBEDDED_WALLET')!;
      expect((await t.api.get(`/auth/credentials?accountId=${encodeURIComponent(wallet.id)}`)).body.data).toEqual([expect.objectContaining({ type: 'EMAIL_OTP' })]);
      // The services announced each customer's provisioning once: the copies made them announce nothing more.
      // (The webhooks inbox is a consumer of its own: read once it holds both announcements.)
      const announced = await eventually(async () => {
        const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: customer.id }, ctx);
        const subjects = received.filter((entry) => !copies.has(entry.eventId) && entry.subject.endsWith('.provisioned')).map((entry) => entry.subject);
        return subjects.length >= 2 ? subjects : undefined;
      });
      expect(announced.sort()).toEqual([PAYMENTS_EVENTS.customerAccountsProvisioned, 'wallet-auth.events.wallet.provisioned']);
    }
  });
});
