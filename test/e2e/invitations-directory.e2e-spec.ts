import { randomInt } from 'node:crypto';
import { CUSTOMERS_SUBJECTS, InternalAccount } from '@paykit/contracts';
import { ApiClient } from '../support/api-client';
import { eventually, startTestStack, TestStack } from '../support/test-stack';
import { WebhookReceiver } from './customers.support';

/**
 * UMA invitations (create, get, claim, cancel and INVITATION.CLAIMED), the directory of UMA
 * providers and VASPs, and crypto withdrawal fee estimates, through the gateway.
 */
describe('Invitations, UMA providers, VASPs and withdrawal fees', () => {
  let t: TestStack;
  let api: ApiClient;

  beforeAll(async () => {
    t = await startTestStack();
    const platform = await t.newPlatform();
    api = platform.api;
    await t.stack.runtime.client.request(
      CUSTOMERS_SUBJECTS.updateConfig,
      { regulated: true },
      { platformId: platform.platformId, environment: 'sandbox', requestId: 'invitations' },
    );
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function umaCustomer(): Promise<{ customerId: string; umaAddress: string }> {
    const domain = (await api.get('/config')).body.umaDomain as string;
    const umaAddress = `$ada.${randomInt(1e9)}@${domain}`;
    const created = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', umaAddress });
    expect(created.status).toBe(201);
    // The payments service learns the address from the customer's event.
    await eventually(async () => ((await api.get(`/customers/internal-accounts?customerId=${created.body.id}`)).body.data.length > 0 ? true : undefined));
    return { customerId: created.body.id, umaAddress };
  }

  describe('invitations', () => {
    it('moves PENDING -> CLAIMED once and tells the inviting platform', async () => {
      const receiver = await WebhookReceiver.attach(api);
      try {
        const { umaAddress } = await umaCustomer();
        const created = await eventually(async () => {
          const response = await api.post('/invitations', { inviterUma: umaAddress, firstName: 'Grace', amountToSend: 1_000 });
          return response.status === 201 ? response : undefined;
        });
        expect(created.body).toEqual({
          code: expect.stringMatching(/^[A-Z2-9]{10}$/),
          createdAt: expect.any(String),
          expiresAt: expect.any(String),
          url: `https://invite.sandbox.uma.money/${created.body.code}`,
          inviterUma: umaAddress,
          status: 'PENDING',
          firstName: 'Grace',
          amountToSend: { amount: 1_000, currency: expect.objectContaining({ code: 'USD' }) },
        });
        expect((await api.get(`/invitations/${created.body.code}`)).body).toEqual(created.body);
        const claimed = await api.post(`/invitations/${created.body.code}/claim`, { inviteeUma: '$grace@other.example' });
        expect(claimed.status).toBe(200);
        expect(claimed.body).toMatchObject({ status: 'CLAIMED', inviteeUma: '$grace@other.example', claimedAt: expect.any(String) });
        const webhooks = await eventually(async () => {
          const found = receiver.received.filter((r) => r.payload.type === 'INVITATION.CLAIMED' && r.payload.data?.code === created.body.code);
          return found.length > 0 ? found : undefined;
        }, 15_000);
        expect(webhooks[0].payload.data).toEqual(claimed.body);
        const again = await api.post(`/invitations/${created.body.code}/claim`, { inviteeUma: '$other@other.example' });
        expect([again.status, again.body.code]).toEqual([400, 'INVITATION_ALREADY_CLAIMED']);
        const cancel = await api.post(`/invitations/${created.body.code}/cancel`);
        expect([cancel.status, cancel.body.code]).toEqual([400, 'INVITATION_ALREADY_CLAIMED']);
      } finally {
        await receiver.close();
      }
    });

    it('cancels a pending invitation, which then cannot be claimed', async () => {
      const { umaAddress } = await umaCustomer();
      const created = await eventually(async () => {
        const response = await api.post('/invitations', { inviterUma: umaAddress });
        return response.status === 201 ? response : undefined;
      });
      const cancelled = await api.post(`/invitations/${created.body.code}/cancel`);
      expect([cancelled.status, cancelled.body.status]).toEqual([200, 'CANCELLED']);
      const claim = await api.post(`/invitations/${created.body.code}/claim`, { inviteeUma: '$grace@other.example' });
      expect([claim.status, claim.body.code]).toEqual([400, 'INVITATION_CANCELLED']);
    });

    it.each([
      ['a malformed inviter', { inviterUma: 'ada' }, 400, 'INVALID_UMA_ADDRESS'],
      ['an inviter that is nobody of the platform', { inviterUma: '$nobody@nowhere.example' }, 400, 'INVALID_UMA_ADDRESS'],
      ['a missing inviter and a bad expiry', { expiresAt: 'soon' }, 400, 'INVALID_INPUT'],
    ])('refuses %s', async (_what, body, status, code) => {
      const refused = await api.post('/invitations', body);
      expect([refused.status, refused.body.code]).toEqual([status, code]);
    });

    it("answers 404 for an unknown code and for another platform's invitation", async () => {
      const { umaAddress } = await umaCustomer();
      const created = await eventually(async () => {
        const response = await api.post('/invitations', { inviterUma: umaAddress });
        return response.status === 201 ? response : undefined;
      });
      const other = await t.newPlatform();
      expect((await other.api.get(`/invitations/${created.body.code}`)).status).toBe(404);
      expect((await other.api.post(`/invitations/${created.body.code}/cancel`)).status).toBe(404);
      const unknown = await api.get('/invitations/NOSUCHCODE');
      expect([unknown.status, unknown.body.code]).toEqual([404, 'INVITATION_NOT_FOUND']);
    });
  });

  describe('GET /uma-providers and GET /vasps', () => {
    it('filters providers by country, currency and allow-list status, and pages by name', async () => {
      const mexico = await api.get('/uma-providers?countryCode=MX&sortOrder=asc');
      expect(mexico.status).toBe(200);
      expect(mexico.body).toMatchObject({ hasMore: false, totalCount: 2 });
      expect(mexico.body.data.map((p: { name: string }) => p.name)).toEqual(['Bahia Pagos', 'Sandbox UMA']);
      expect(mexico.body.data[1]).toMatchObject({
        domain: 'sandbox.uma.money',
        allowListStatus: true,
        supportedCurrencies: expect.arrayContaining([expect.objectContaining({ code: 'MXN' })]),
      });
      const blocked = await api.get('/uma-providers?hasBlockedProviders=true');
      expect(blocked.body.data.map((p: { name: string }) => p.name)).toEqual(['Lagos Pay']);
      const first = await api.get('/uma-providers?limit=2');
      expect(first.body).toMatchObject({ hasMore: true, totalCount: 5, nextCursor: expect.any(String) });
      const next = await api.get(`/uma-providers?limit=2&cursor=${first.body.nextCursor}`);
      expect(next.body.data.map((p: { name: string }) => p.name)).toEqual(['Lagos Pay', 'Bahia Pagos']);
      const bad = await api.get('/uma-providers?cursor=bm9wZQ&countryCode=usa');
      expect(bad.status).toBe(400);
    });

    it('lists the VASPs by name', async () => {
      const listed = await api.get('/vasps?limit=3');
      expect(listed.status).toBe(200);
      expect(listed.body).toMatchObject({
        hasMore: true,
        data: [{ vaspName: 'Atlas Exchange', url: 'https://atlas-exchange.example' }, { vaspName: 'Borealis Custody' }, { vaspName: 'Cobalt Markets' }],
      });
      const rest = await api.get(`/vasps?cursor=${listed.body.nextCursor}`);
      expect(rest.body).toEqual({ data: [{ vaspName: 'Delta Digital Assets' }], hasMore: false });
    });
  });

  describe('POST /crypto/estimate-withdrawal-fee', () => {
    it("adds the network's fee and the service's fee, rounded up", async () => {
      const platformAccounts = await api.get('/platform/internal-accounts?currency=USDC');
      const account = (platformAccounts.body.data as InternalAccount[])[0];
      const body = {
        internalAccountId: account.id,
        currency: 'USDC',
        cryptoNetwork: 'SOLANA',
        amount: 10_000_001,
        destinationAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
      };
      const estimated = await api.post('/crypto/estimate-withdrawal-fee', body);
      expect(estimated.status).toBe(200);
      expect(estimated.body).toEqual({ networkFee: 1_000, networkFeeAsset: 'USDC', applicationFee: 10_001, totalFee: 11_001, netAmount: 9_989_000 });
      const unknownNetwork = await api.post('/crypto/estimate-withdrawal-fee', { ...body, cryptoNetwork: 'DOGE' });
      expect([unknownNetwork.status, unknownNetwork.body.details.errors[0].field]).toEqual([400, 'cryptoNetwork']);
      const missing = await api.post('/crypto/estimate-withdrawal-fee', {});
      expect(missing.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['amount', 'cryptoNetwork', 'currency', 'destinationAddress', 'internalAccountId']);
    });
  });
});
