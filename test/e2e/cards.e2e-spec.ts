/**
 * @distributed cards: the sandbox card network, its jobs and events, dead letters on PostgreSQL
 */
import { createServer, Server } from 'node:http';
import { Writable } from 'node:stream';
import { createRootLogger } from '@paykit/runtime';
import { DataSource } from 'typeorm';
import {
  CallerContext,
  CARDS_WORK_EVENTS,
  CARDS_WORKER_CONSUMER,
  contractVersion,
  CUSTOMERS_SUBJECTS,
  DomainEvent,
  InternalAccount,
  newId,
  ReceivedEvent,
  uuidv7,
  WEBHOOKS_SUBJECTS,
} from '@paykit/contracts';
import { DeadLetterEntity, DeadLetterStore } from '@paykit/persistence';
import { deadLetterCommand } from '../../tools/dead-letters/commands';
import { ApiClient, ApiResponse } from '../support/api-client';
import { SHORT_UNICODE_SAMPLES } from '../support/unicode-samples';
import { advanceClock, eventually, stackMode, startTestStack, TestStack } from '../support/test-stack';
import { Session, stamp, WalletAuthClient } from '../support/wallet-auth-client';

/**
 * Cards through HTTP: issuance (suffix table), the card state table with signed PATCH from a real
 * OTP session, funding-source rules, and the sandbox card network with the payments ledger checked
 * after every path. Runs in embedded and distributed mode.
 */

// Every log line of the processes in this one lands here, so the test can show no card secret is logged.
const logLines: string[] = [];
createRootLogger({
  level: 'debug',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  }),
});

const USDC = { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 };
const money = (amount: number) => ({ amount, currency: USDC });

interface Holder {
  customerId: string;
  wallet: string;
  crypto: string;
  usd: string;
  session: Session;
}

describe('Cards', () => {
  let t: TestStack;
  let api: ApiClient;
  let ctx: CallerContext;
  let client: WalletAuthClient;
  let holder: Holder;

  beforeAll(async () => {
    t = await startTestStack();
    const platform = await t.newPlatform();
    api = platform.api;
    ctx = { platformId: platform.platformId, environment: 'sandbox', requestId: 'cards-test' };
    // Regulated platforms' customers start APPROVED: they are ready for cards at once.
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
    client = new WalletAuthClient(api);
    holder = await newHolder();
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function newHolder(): Promise<Holder> {
    const wallet = await client.createWallet('card');
    const accounts = await eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(wallet.customerId)}&limit=100`);
      const data = (listed.body?.data ?? []) as InternalAccount[];
      const crypto = data.find((a) => a.type === 'INTERNAL_CRYPTO' && a.balance.currency.code === 'USDC');
      const usd = data.find((a) => a.balance.currency.code === 'USD');
      return crypto && usd ? { crypto: crypto.id, usd: usd.id } : undefined;
    });
    const session = await client.otpLogin(wallet.emailCredentialId);
    return { customerId: wallet.customerId, wallet: wallet.accountId, ...accounts, session };
  }

  function issue(body: Record<string, unknown> = {}, who: Holder = holder): Promise<ApiResponse> {
    return api.post('/cards', { cardholderId: who.customerId, form: 'VIRTUAL', fundingSources: [who.wallet], ...body });
  }

  async function activeCard(who: Holder = holder, fundingSources = [who.wallet]): Promise<any> {
    const created = await issue({ platformCardId: `card-${Math.random().toString(36).slice(2, 8)}-900`, fundingSources }, who);
    expect(created.status).toBe(201);
    expect(created.body.state).toBe('ACTIVE');
    return created.body;
  }

  function patch(cardId: string, body: unknown, who: Holder = holder): Promise<ApiResponse> {
    return client.signed('PATCH', `/cards/${cardId}`, body, who.session.key);
  }

  async function fund(accountId: string, amount: number): Promise<void> {
    const funded = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount });
    expect(funded.status).toBe(200);
  }

  async function balance(accountId: string): Promise<number> {
    return (await api.get(`/internal-accounts/${accountId}`)).body.balance.amount;
  }

  function simulate(cardId: string, kind: string, body: Record<string, unknown>): Promise<ApiResponse> {
    return api.post(`/sandbox/cards/${cardId}/simulate/${kind}`, body);
  }

  function authorize(cardId: string, amount: number, descriptor = 'COFFEE SHOP 100', kind = 'authorization'): Promise<ApiResponse> {
    return simulate(cardId, kind, { amount, currency: USDC, merchant: { descriptor, mcc: '5814', country: 'US' } });
  }

  async function events(resourceId: string, count: number): Promise<ReceivedEvent[]> {
    return eventually(async () => {
      const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId }, ctx);
      const announced = received.filter((e) => e.webhookType);
      return announced.length >= count ? announced : undefined;
    });
  }

  async function webhookTypes(resourceId: string, count: number): Promise<string[]> {
    return (await events(resourceId, count)).map((e) => e.webhookType!);
  }

  describe('issuance', () => {
    it.each([
      ['001', 'PROCESSING', undefined, '0001'],
      ['002', 'CLOSED', 'ISSUER_REJECTED', '0002'],
      ['005', 'PROCESSING', undefined, '0005'],
      ['123', 'ACTIVE', undefined, '0123'],
    ])('platformCardId suffix %s issues a %s card (stateReason %s, last4 %s)', async (suffix, state, stateReason, last4) => {
      const created = await issue({ platformCardId: `card-${suffix}` });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^Card:[0-9a-f-]{36}$/),
        cardholderId: holder.customerId,
        platformCardId: `card-${suffix}`,
        form: 'VIRTUAL',
        fundingSources: state === 'CLOSED' ? [] : [holder.wallet],
        maxSpendPerTransaction: null,
        state,
        ...(stateReason ? { stateReason } : {}),
        last4,
        brand: 'VISA',
        expMonth: expect.any(Number),
        expYear: expect.any(Number),
        currency: 'USDC',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      // 005 may already have activated (its 30 s are scaled down); its own test follows.
      const fetched = await api.get(`/cards/${created.body.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(suffix === '005' ? { ...created.body, state: fetched.body.state, updatedAt: fetched.body.updatedAt } : created.body);
    });

    it('suffix 005 activates after about 30 s (on the test clock) and announces CARD.STATE_CHANGE with state ACTIVE', async () => {
      const created = await issue({ platformCardId: 'late-005' });
      expect(created.body.state).toBe('PROCESSING');
      await advanceClock(api, 31);
      const active = (await api.get(`/cards/${created.body.id}`)).body;
      expect(active.state).toBe('ACTIVE');
      expect(active.last4).toBe('0005');
      expect(await webhookTypes(created.body.id, 1)).toEqual(['CARD.STATE_CHANGE']);
    });

    it("uses the cardholderId's last 3 characters when platformCardId is omitted", async () => {
      const created = await issue();
      expect(created.status).toBe(201);
      const suffix = holder.customerId.slice(-3);
      const expected = ['001', '002', '005'].includes(suffix) ? created.body.state : 'ACTIVE';
      expect(created.body.state).toBe(expected);
      expect(created.body.last4).toBe(`0${[...suffix].map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) % 10))).join('')}`);
      expect(created.body.platformCardId).toBeUndefined();
    });

    // Once a 500: the sandbox last4 was cut from these by code point, not by UTF-16 unit.
    it.each(SHORT_UNICODE_SAMPLES)('a platformCardId ending in %s is stored as sent, with four ASCII digits as last4', async (_, text) => {
      const created = await issue({ platformCardId: `card-${text}` });
      expect(created.status).toBe(201);
      expect(created.body.last4).toMatch(/^[0-9]{4}$/);
      const read = await api.get(`/cards/${created.body.id}`);
      expect(read.body.platformCardId).toBe(`card-${text}`);
    });

    it('lists every invalid field of the body', async () => {
      const response = await api.post('/cards', { cardholderId: 'nope', form: 'PHYSICAL', fundingSources: [], extra: 1 });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_INPUT');
      const fields = response.body.details.errors.map((e: { field: string }) => e.field).sort();
      expect(fields).toEqual(['cardholderId', 'extra', 'form', 'fundingSources']);
      const form = response.body.details.errors.find((e: { field: string }) => e.field === 'form');
      expect(form.constraint).toEqual({ enum: ['VIRTUAL'] });
    });

    it('refuses a customer who is not ready (KYC not approved) with 400 CARDHOLDER_KYC_NOT_APPROVED', async () => {
      // The stack's own platform is unregulated: its customers start with KYC PENDING.
      const customer = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Pending Person', email: 'pending@example.com' });
      const response = await t.api.post('/cards', { cardholderId: customer.body.id, form: 'VIRTUAL', fundingSources: [holder.wallet] });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('CARDHOLDER_KYC_NOT_APPROVED');
    });

    it("answers 404 for an unknown card and for another platform's card", async () => {
      const card = await activeCard();
      const other = await t.newPlatform();
      for (const [client_, id] of [
        [api, 'Card:00000000-0000-7000-8000-000000000000'],
        [other.api, card.id],
      ] as const) {
        const response = await client_.get(`/cards/${id}`);
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('REFERENCE_NOT_FOUND');
      }
    });

    it('lists cards newest first, filtered by cardholder and state, with a cursor', async () => {
      const who = await newHolder();
      const first = await activeCard(who);
      const second = await activeCard(who);
      const processing = (await issue({ platformCardId: 'list-001' }, who)).body;
      const all = await api.get(`/cards?cardholderId=${encodeURIComponent(who.customerId)}`);
      expect(all.body.data.map((c: { id: string }) => c.id)).toEqual([processing.id, second.id, first.id]);
      expect(all.body.totalCount).toBe(3);
      const active = await api.get(`/cards?cardholderId=${encodeURIComponent(who.customerId)}&state=ACTIVE&limit=1`);
      expect(active.body.data.map((c: { id: string }) => c.id)).toEqual([second.id]);
      expect(active.body.hasMore).toBe(true);
      const next = await api.get(`/cards?cardholderId=${encodeURIComponent(who.customerId)}&state=ACTIVE&limit=1&cursor=${active.body.nextCursor}`);
      // totalCount counts every page of the filter, whichever page is asked for.
      expect(active.body.totalCount).toBe(2);
      expect(next.body).toMatchObject({ data: [{ id: first.id }], hasMore: false, totalCount: 2 });
      const oldest = await api.get(`/cards?cardholderId=${encodeURIComponent(who.customerId)}&sortOrder=asc&limit=2`);
      expect(oldest.body.data.map((c: { id: string }) => c.id)).toEqual([first.id, second.id]);
      const rest = await api.get(`/cards?cardholderId=${encodeURIComponent(who.customerId)}&sortOrder=asc&limit=2&cursor=${oldest.body.nextCursor}`);
      expect(rest.body).toMatchObject({ data: [{ id: processing.id }], hasMore: false });
      const byAccount = await api.get(`/cards?accountId=${encodeURIComponent(who.wallet)}`);
      expect(byAccount.body.data.map((c: { id: string }) => c.id)).toEqual([processing.id, second.id, first.id]);
      expect((await api.get(`/cards?accountId=${encodeURIComponent(who.crypto)}`)).body.data).toEqual([]);
      const byPlatformId = await api.get(`/cards?platformCardId=list-001&cardholderId=${encodeURIComponent(who.customerId)}`);
      expect(byPlatformId.body.data.map((c: { id: string }) => c.id)).toEqual([processing.id]);
    });
  });

  describe('funding sources', () => {
    const fake = (suffix: string) => `InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5${suffix}`;

    it.each([
      ['sandbox account suffix 002', () => fake('002')],
      ['sandbox account suffix 003', () => fake('003')],
      ['an unknown account', () => fake('a69')],
      ["another customer's USDC account", () => otherHolder.wallet],
      ['an account in another currency (USD)', () => holder.usd],
    ])('issuing with %s answers 400 FUNDING_SOURCE_INELIGIBLE', async (_, source) => {
      const response = await issue({ fundingSources: [holder.wallet, source()] });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('FUNDING_SOURCE_INELIGIBLE');
      expect(response.body.details).toMatchObject({ field: 'fundingSources[1]', accountId: source() });
    });

    let otherHolder: Holder;
    beforeAll(async () => {
      otherHolder = await newHolder();
    });

    it('replaces the ordered list by signed PATCH and announces CARD.FUNDING_SOURCE_CHANGE with the post-change card', async () => {
      const card = await activeCard();
      const updated = await patch(card.id, { fundingSources: [holder.wallet, holder.crypto] });
      expect(updated.status).toBe(200);
      expect(updated.body.fundingSources).toEqual([holder.wallet, holder.crypto]);
      expect((await api.get(`/cards/${card.id}`)).body.fundingSources).toEqual([holder.wallet, holder.crypto]);
      expect(await webhookTypes(card.id, 1)).toEqual(['CARD.FUNDING_SOURCE_CHANGE']);
    });

    it.each([
      ['an empty list', { fundingSources: [] }, 400, 'INVALID_INPUT'],
      ['fundingSources with state CLOSED', { state: 'CLOSED', fundingSources: ['InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69'] }, 400, 'INVALID_INPUT'],
      ['an ineligible source', { fundingSources: ['InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5002'] }, 400, 'FUNDING_SOURCE_INELIGIBLE'],
    ])('refuses %s on the first call (before any 202)', async (_, body, status, code) => {
      const card = await activeCard();
      const response = await api.patch(`/cards/${card.id}`, body);
      expect(response.status).toBe(status);
      expect(response.body.code).toBe(code);
    });

    it('only the first source is used for authorizations', async () => {
      const who = await newHolder();
      await fund(who.crypto, 1_000_000);
      const card = await activeCard(who, [who.wallet, who.crypto]);
      const declined = await authorize(card.id, 500_000);
      expect(declined.body).toMatchObject({ status: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS', accountId: who.wallet });
      expect(await balance(who.crypto)).toBe(1_000_000);
    });
  });

  describe('card state table (signed PATCH)', () => {
    async function cardIn(state: string): Promise<any> {
      if (state === 'PROCESSING') return (await issue({ platformCardId: `state-${Math.random().toString(36).slice(2, 6)}-001` })).body;
      const card = await activeCard();
      if (state === 'FROZEN' || state === 'CLOSED') expect((await patch(card.id, { state })).status).toBe(200);
      return card;
    }

    it.each([
      ['ACTIVE', 'FROZEN', undefined],
      ['FROZEN', 'ACTIVE', undefined],
      ['ACTIVE', 'CLOSED', 'CLOSED_BY_PLATFORM'],
      ['FROZEN', 'CLOSED', 'CLOSED_BY_PLATFORM'],
    ])('%s -> %s: 202, then 200 with the card, and CARD.STATE_CHANGE', async (from, to, stateReason) => {
      const card = await cardIn(from);
      const first = await api.patch(`/cards/${card.id}`, { state: to });
      expect(first.status).toBe(202);
      expect(first.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.any(String), expiresAt: expect.any(String) });
      const done = await patch(card.id, { state: to });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ id: card.id, state: to, ...(stateReason ? { stateReason, fundingSources: [] } : {}) });
      const types = await webhookTypes(card.id, from === 'FROZEN' ? 2 : 1);
      expect(types.every((type) => type === 'CARD.STATE_CHANGE')).toBe(true);
    });

    it.each([
      ['ACTIVE', 'ACTIVE', 'INVALID_STATE_TRANSITION'],
      ['FROZEN', 'FROZEN', 'INVALID_STATE_TRANSITION'],
      ['PROCESSING', 'ACTIVE', 'INVALID_STATE_TRANSITION'],
      ['PROCESSING', 'FROZEN', 'INVALID_STATE_TRANSITION'],
      ['PROCESSING', 'CLOSED', 'INVALID_STATE_TRANSITION'],
      ['CLOSED', 'ACTIVE', 'CARD_ALREADY_CLOSED'],
      ['CLOSED', 'FROZEN', 'CARD_ALREADY_CLOSED'],
      ['CLOSED', 'CLOSED', 'CARD_ALREADY_CLOSED'],
    ])('%s -> %s is refused with 409 %s on the first call', async (from, to, code) => {
      const card = await cardIn(from);
      const response = await api.patch(`/cards/${card.id}`, { state: to });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe(code);
    });

    it('a state change and a funding change in one PATCH announce both events', async () => {
      const card = await activeCard(holder, [holder.wallet, holder.crypto]);
      const done = await patch(card.id, { state: 'FROZEN', fundingSources: [holder.wallet] });
      expect(done.body).toMatchObject({ state: 'FROZEN', fundingSources: [holder.wallet] });
      expect((await webhookTypes(card.id, 2)).sort()).toEqual(['CARD.FUNDING_SOURCE_CHANGE', 'CARD.STATE_CHANGE']);
    });

    it('a closed card refuses a funding-source change with 409 CARD_NOT_MUTABLE', async () => {
      const card = await cardIn('CLOSED');
      const response = await api.patch(`/cards/${card.id}`, { fundingSources: [holder.wallet] });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('CARD_NOT_MUTABLE');
    });

    it('applies nothing without a valid signature, and a request id works once', async () => {
      const card = await activeCard(holder, [holder.wallet, holder.crypto]);
      const body = { fundingSources: [holder.wallet] };
      const first = await api.patch(`/cards/${card.id}`, body);
      const unsigned = await api.patch(`/cards/${card.id}`, body, { headers: { 'request-id': first.body.requestId } });
      expect(unsigned.status).toBe(401);
      expect(unsigned.body.code).toBe('WALLET_SIGNATURE_MISSING');
      const headers = { 'service-wallet-signature': await stamp(first.body.payloadToSign, holder.session.key), 'request-id': first.body.requestId };
      const otherBody = await api.patch(`/cards/${card.id}`, { ...body, state: 'FROZEN' }, { headers });
      expect(otherBody.status).toBe(401);
      expect(otherBody.body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
      expect((await api.get(`/cards/${card.id}`)).body).toMatchObject({ state: 'ACTIVE', fundingSources: [holder.wallet, holder.crypto] });
      const signed = await api.patch(`/cards/${card.id}`, body, { headers });
      expect(signed.status).toBe(200);
      expect(signed.body.fundingSources).toEqual([holder.wallet]);
      const replay = await api.patch(`/cards/${card.id}`, body, { headers });
      expect(replay.status).toBe(401);
    });

    it("refuses a session of another customer's wallet", async () => {
      const who = await newHolder();
      const card = await activeCard();
      const response = await patch(card.id, { state: 'FROZEN' }, who);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('WALLET_SIGNATURE_INVALID');
    });
  });

  describe('sandbox card network', () => {
    let card: any;
    let who: Holder;

    beforeAll(async () => {
      who = await newHolder();
      card = await activeCard(who);
      await fund(who.wallet, 100_000_000);
    });

    it.each([
      ['002', 'DECLINED', { declineReason: 'INSUFFICIENT_FUNDS' }, 0],
      ['003', 'DECLINED', { declineReason: 'CARD_PAUSED' }, 0],
      ['006', 'EXCEPTION', { exception: { urgency: 'HIGH', reason: 'CONFIRMATION_FAILED', message: expect.any(String) } }, 1_000_000],
      ['100', 'CONFIRMED', {}, 1_000_000],
    ])('descriptor suffix %s: %s, and the funding account is held by the approved amount only', async (suffix, status, extra, held) => {
      const before = await balance(who.wallet);
      const response = await authorize(card.id, 1_000_000, `SHOP ${suffix}`);
      expect(response.status).toBe(202);
      expect(response.body).toEqual({
        type: 'CARD',
        id: expect.stringMatching(/^CardTransaction:[0-9a-f-]{36}$/),
        cardId: card.id,
        customerId: who.customerId,
        platformCustomerId: expect.any(String),
        accountId: who.wallet,
        issuerTransactionToken: expect.stringMatching(/^itx_[0-9a-f]{32}$/),
        operation: 'AUTHORIZATION',
        direction: 'DEBIT',
        status,
        merchant: { descriptor: `SHOP ${suffix}`, mcc: '5814', country: 'US' },
        currency: USDC,
        authorizedAmount: money(1_000_000),
        settledAmount: money(0),
        refundedAmount: money(0),
        forcePosted: false,
        authorizedAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        ...extra,
      });
      expect(await balance(who.wallet)).toBe(before - held);
      expect((await api.get(`/card-transactions/${response.body.id}`)).body).toEqual(response.body);
      expect(await webhookTypes(response.body.id, 1)).toEqual([`CARD_TRANSACTION.${status === 'CONFIRMED' ? 'AUTHORIZED' : status}`]);
    });

    it('descriptor suffix 005: PENDING, then the delayed pull holds the amount and confirms', async () => {
      const before = await balance(who.wallet);
      const response = await authorize(card.id, 2_000_000, 'SLOW SHOP 005');
      expect(response.body.status).toBe('PENDING');
      // The pull is due 30 s later on the test clock; it then goes through the card network's queue.
      await advanceClock(api, 31);
      const confirmed = await eventually(async () => {
        const fetched = await api.get(`/card-transactions/${response.body.id}`);
        return fetched.body.status === 'CONFIRMED' ? fetched.body : undefined;
      });
      expect(confirmed.authorizedAmount).toEqual(money(2_000_000));
      expect(await balance(who.wallet)).toBe(before - 2_000_000);
      expect(await webhookTypes(response.body.id, 2)).toEqual(['CARD_TRANSACTION.PENDING', 'CARD_TRANSACTION.AUTHORIZED']);
    });

    it.each([
      ['equal to', 3_000_000, 'SETTLED', 3_000_000],
      ['below', 2_000_000, 'SETTLED', 2_000_000],
      ['above (the excess is pulled afterwards)', 3_500_000, 'SETTLED', 3_500_000],
    ])('a clearing %s the authorized amount posts it', async (_, amount, status, posted) => {
      const before = await balance(who.wallet);
      const auth = await authorize(card.id, 3_000_000);
      const cleared = await simulate(card.id, 'clearing', { cardTransactionId: auth.body.id, amount });
      expect(cleared.status).toBe(202);
      expect(cleared.body).toMatchObject({ status, settledAmount: money(posted), authorizedAmount: money(3_000_000), settledAt: expect.any(String) });
      expect(await balance(who.wallet)).toBe(before - posted);
      expect(await webhookTypes(auth.body.id, 2)).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.SETTLED']);
    });

    it('a clearing of 0 expires the authorization (AUTHORIZATION_EXPIRY) and releases the hold', async () => {
      const before = await balance(who.wallet);
      const auth = await authorize(card.id, 4_000_000);
      expect(await balance(who.wallet)).toBe(before - 4_000_000);
      const expired = await simulate(card.id, 'clearing', { cardTransactionId: auth.body.id, amount: 0 });
      expect(expired.body).toMatchObject({ status: 'EXPIRED', expiryReason: 'AUTHORIZATION_EXPIRY', settledAmount: money(0) });
      expect(await balance(who.wallet)).toBe(before);
    });

    it('returns: a partial one keeps SETTLED with refundedAmount, the rest moves it to REFUNDED; never more than settled', async () => {
      const before = await balance(who.wallet);
      const auth = await authorize(card.id, 5_000_000);
      await simulate(card.id, 'clearing', { cardTransactionId: auth.body.id, amount: 5_000_000 });
      const partial = await simulate(card.id, 'return', { cardTransactionId: auth.body.id, amount: 2_000_000 });
      expect(partial.body).toMatchObject({ status: 'SETTLED', refundedAmount: money(2_000_000) });
      expect(await balance(who.wallet)).toBe(before - 3_000_000);
      const tooMuch = await simulate(card.id, 'return', { cardTransactionId: auth.body.id, amount: 3_000_001 });
      expect(tooMuch.status).toBe(400);
      const rest = await simulate(card.id, 'return', { cardTransactionId: auth.body.id, amount: 3_000_000 });
      expect(rest.body).toMatchObject({ status: 'REFUNDED', refundedAmount: money(5_000_000) });
      expect(await balance(who.wallet)).toBe(before);
      expect(await webhookTypes(auth.body.id, 4)).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.SETTLED', 'CARD_TRANSACTION.SETTLED', 'CARD_TRANSACTION.REFUNDED']);
    });

    it.each([
      ['credit_authorization', 'CREDIT_AUTHORIZATION', 'CREDIT', +1],
      ['financial_credit_authorization', 'FINANCIAL_CREDIT_AUTHORIZATION', 'CREDIT', +1],
      ['financial_authorization', 'FINANCIAL_AUTHORIZATION', 'DEBIT', -1],
    ])('%s settles at once and moves the money on the funding account', async (path, operation, direction, sign) => {
      const before = await balance(who.wallet);
      const response = await authorize(card.id, 700_000, 'ONLINE STORE 100', path);
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({ type: 'CARD', operation, direction, status: 'SETTLED', settledAmount: money(700_000) });
      expect(await balance(who.wallet)).toBe(before + sign * 700_000);
    });

    it('credit authorization advice: 202 with the token; the card operation arrives later through events only', async () => {
      const before = await balance(who.wallet);
      const response = await authorize(card.id, 900_000, 'REFUND DESK 100', 'credit_authorization_advice');
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ issuerTransactionToken: expect.stringMatching(/^itx_[0-9a-f]{32}$/) });
      const token: string = response.body.issuerTransactionToken;
      const id = `CardTransaction:${token.slice(4, 12)}-${token.slice(12, 16)}-${token.slice(16, 20)}-${token.slice(20, 24)}-${token.slice(24)}`;
      expect(await webhookTypes(id, 1)).toEqual(['CARD_TRANSACTION.SETTLED']);
      const operation = (await api.get(`/card-transactions/${id}`)).body;
      expect(operation).toMatchObject({
        issuerTransactionToken: token,
        operation: 'CREDIT_AUTHORIZATION_ADVICE',
        direction: 'CREDIT',
        status: 'SETTLED',
        settledAmount: money(900_000),
      });
      expect(await balance(who.wallet)).toBe(before + 900_000);
    });

    it('descriptor suffix 005 on a credit: PENDING, then the delayed credit settles it once', async () => {
      const before = await balance(who.wallet);
      const response = await authorize(card.id, 300_000, 'REFUND DESK 005', 'credit_authorization');
      expect(response.body).toMatchObject({ status: 'PENDING', direction: 'CREDIT' });
      await advanceClock(api, 31);
      const settled = await eventually(async () => {
        const fetched = await api.get(`/card-transactions/${response.body.id}`);
        return fetched.body.status === 'SETTLED' ? fetched.body : undefined;
      });
      expect(settled.settledAmount).toEqual(money(300_000));
      expect(await balance(who.wallet)).toBe(before + 300_000);
      expect(await webhookTypes(response.body.id, 2)).toEqual(['CARD_TRANSACTION.PENDING', 'CARD_TRANSACTION.SETTLED']);
    });

    it("answers another platform's card and card transaction like unknown ones", async () => {
      const auth = await authorize(card.id, 1_000);
      const other = await t.newPlatform();
      const transaction = await other.api.get(`/card-transactions/${auth.body.id}`);
      expect(transaction.status).toBe(404);
      expect(transaction.body.code).toBe('TRANSACTION_NOT_FOUND');
      const simulated = await other.api.post(`/sandbox/cards/${card.id}/simulate/clearing`, { cardTransactionId: auth.body.id, amount: 1_000 });
      expect(simulated.status).toBe(404);
      expect(simulated.body.code).toBe('REFERENCE_NOT_FOUND');
      const listed = await other.api.get(`/cards/${card.id}/transactions`);
      expect(listed.status).toBe(404);
    });

    it('lists the card transactions newest first', async () => {
      const listed = await api.get(`/cards/${card.id}/transactions?limit=2`);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toHaveLength(2);
      expect(listed.body.hasMore).toBe(true);
      expect(listed.body.data[0].id > listed.body.data[1].id).toBe(true);
    });

    it('lists every invalid field of a simulator body', async () => {
      const response = await simulate(card.id, 'authorization', {
        amount: 0,
        currency: { code: 'usdc', name: 7, symbol: 'USDC', decimals: -1 },
        merchant: { mcc: '58', country: 'USA' },
      });
      expect(response.status).toBe(400);
      const fields = response.body.details.errors.map((e: { field: string }) => e.field).sort();
      expect(fields).toEqual(['amount', 'currency.code', 'currency.decimals', 'currency.name', 'merchant.country', 'merchant.descriptor', 'merchant.mcc']);
      const mcc = response.body.details.errors.find((e: { field: string }) => e.field === 'merchant.mcc');
      expect(mcc.constraint).toEqual({ pattern: '^\\d{4}$' });
    });

    it('answers 404 for an unknown card and 403 for a production token', async () => {
      const unknown = await authorize('Card:00000000-0000-7000-8000-000000000000', 100);
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('REFERENCE_NOT_FOUND');
      const production = await t.newPlatform('production');
      const refused = await production.api.post(`/sandbox/cards/${card.id}/simulate/authorization`, { amount: 100, currency: USDC, merchant: { descriptor: 'X 100' } });
      expect(refused.status).toBe(403);
    });
  });

  describe('reference fidelity', () => {
    let card: any;
    let who: Holder;

    beforeAll(async () => {
      who = await newHolder();
      card = await activeCard(who);
      await fund(who.wallet, 100_000_000);
    });

    const idOfToken = (token: string) => `CardTransaction:${token.slice(4, 12)}-${token.slice(12, 16)}-${token.slice(16, 20)}-${token.slice(20, 24)}-${token.slice(24)}`;

    async function transaction(id: string): Promise<any> {
      const fetched = await api.get(`/card-transactions/${id}`);
      expect(fetched.status).toBe(200);
      return fetched.body;
    }

    describe('maxSpendPerTransaction', () => {
      it('is set on issue, returned everywhere, changed and cleared by signed PATCH, and enforced on authorizations', async () => {
        const owner = await newHolder();
        await fund(owner.wallet, 20_000_000);
        const created = await issue({ platformCardId: `limit-${Math.random().toString(36).slice(2, 8)}-900`, maxSpendPerTransaction: 1_000_000 }, owner);
        expect(created.status).toBe(201);
        expect(created.body.maxSpendPerTransaction).toBe(1_000_000);
        const id: string = created.body.id;
        expect((await api.get(`/cards/${id}`)).body.maxSpendPerTransaction).toBe(1_000_000);
        const listed = await api.get(`/cards?cardholderId=${encodeURIComponent(owner.customerId)}`);
        expect(listed.body.data.find((c: { id: string }) => c.id === id).maxSpendPerTransaction).toBe(1_000_000);

        const before = await balance(owner.wallet);
        expect((await authorize(id, 1_000_000)).body.status).toBe('CONFIRMED');
        const above = await authorize(id, 1_000_001);
        expect(above.status).toBe(202);
        expect(above.body).toMatchObject({ status: 'DECLINED', declineReason: 'TRANSACTION_SIZE_LIMIT_EXCEEDED', authorizedAmount: money(1_000_001) });
        expect(await balance(owner.wallet)).toBe(before - 1_000_000);
        expect(await webhookTypes(above.body.id, 1)).toEqual(['CARD_TRANSACTION.DECLINED']);

        const first = await api.patch(`/cards/${id}`, { maxSpendPerTransaction: 2_000_000 });
        expect(first.status).toBe(202);
        const raised = await patch(id, { maxSpendPerTransaction: 2_000_000 }, owner);
        expect(raised.status).toBe(200);
        expect(raised.body.maxSpendPerTransaction).toBe(2_000_000);
        expect((await authorize(id, 1_500_000)).body.status).toBe('CONFIRMED');

        const cleared = await patch(id, { maxSpendPerTransaction: null }, owner);
        expect(cleared.status).toBe(200);
        expect(cleared.body.maxSpendPerTransaction).toBeNull();
        expect((await api.get(`/cards/${id}`)).body.maxSpendPerTransaction).toBeNull();
        expect((await authorize(id, 3_000_000)).body.status).toBe('CONFIRMED');
      });

      it.each([
        ['0', { maxSpendPerTransaction: 0 }, ['maxSpendPerTransaction']],
        ['a fraction', { maxSpendPerTransaction: 1.5 }, ['maxSpendPerTransaction']],
        ['with state CLOSED', { state: 'CLOSED', maxSpendPerTransaction: 5 }, ['maxSpendPerTransaction']],
      ])('PATCH refuses %s with 400 naming the field, before any 202', async (_, body, fields) => {
        const response = await api.patch(`/cards/${card.id}`, body);
        expect(response.status).toBe(400);
        expect(response.body.details.errors.map((e: { field: string }) => e.field)).toEqual(fields);
      });

      it('POST /cards refuses a limit below 1 and a non-string 3-D Secure password, listing both', async () => {
        const response = await issue({ maxSpendPerTransaction: 0, threeDSecurePassword: 42 });
        expect(response.status).toBe(400);
        expect(response.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['maxSpendPerTransaction', 'threeDSecurePassword']);
      });

      it('a closed card refuses a limit change with 409 CARD_NOT_MUTABLE', async () => {
        const closed = await activeCard(who);
        expect((await patch(closed.id, { state: 'CLOSED' }, who)).status).toBe(200);
        const response = await api.patch(`/cards/${closed.id}`, { maxSpendPerTransaction: 100 });
        expect(response.status).toBe(409);
        expect(response.body.code).toBe('CARD_NOT_MUTABLE');
      });

      it('accepts a 3-D Secure password and never returns it', async () => {
        const created = await issue({ platformCardId: `tds-${Math.random().toString(36).slice(2, 8)}-900`, threeDSecurePassword: 'Tds-Pass-7781' }, who);
        expect(created.status).toBe(201);
        expect(JSON.stringify(created.body)).not.toContain('Tds-Pass-7781');
        expect(JSON.stringify((await api.get(`/cards/${created.body.id}`)).body)).not.toContain('Tds-Pass-7781');
        expect(logLines.join('')).not.toContain('Tds-Pass-7781');
      });
    });

    describe('simulator bodies', () => {
      it("accepts the reference's example body (currency code USD only): USD at par on a USDC card", async () => {
        const before = await balance(who.wallet);
        const response = await simulate(card.id, 'authorization', {
          amount: 1250,
          currency: { code: 'USD' },
          merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
        });
        expect(response.status).toBe(202);
        expect(response.body).toMatchObject({ status: 'CONFIRMED', issuerTransactionToken: expect.any(String), authorizedAmount: money(12_500_000), currency: USDC });
        expect(await balance(who.wallet)).toBe(before - 12_500_000);
      });

      it.each([
        ['authorization', { amount: 100, currency: { code: 'USD' }, merchant: [] }, ['merchant']],
        ['authorization', { amount: 100, currency: [], merchant: { descriptor: 'X 100' } }, ['currency']],
        ['credit_authorization_advice', { amount: 100, currency: { code: 'USD' }, merchant: 'shop' }, ['merchant']],
        ['credit_authorization_advice', { amount: 100, currency: { code: 'USD' }, merchant: [] }, ['merchant']],
        ['balance_inquiry', { merchant: [] }, ['merchant']],
        ['authorization_advice', { cardTransactionId: 7, amount: 0 }, ['amount', 'cardTransactionId']],
        ['return_reversal', {}, ['cardTransactionId']],
      ])('%s refuses %j with 400 listing %j, and records nothing', async (kind, body, fields) => {
        const before = (await api.get(`/cards/${card.id}/transactions?limit=1`)).body.data[0]?.id;
        const response = await simulate(card.id, kind, body);
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('INVALID_INPUT');
        expect(response.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(fields);
        expect((await api.get(`/cards/${card.id}/transactions?limit=1`)).body.data[0]?.id).toBe(before);
      });

      it.each(['authorization', 'financial_authorization', 'credit_authorization', 'credit_authorization_advice'])(
        '%s refuses a USD amount beyond what the USDC card can carry (10^4 of its units a cent) with 400 naming amount, and records nothing',
        async (kind) => {
          const before = (await api.get(`/cards/${card.id}/transactions?limit=1`)).body.data[0]?.id;
          const response = await simulate(card.id, kind, { amount: Number.MAX_SAFE_INTEGER, currency: { code: 'USD' }, merchant: { descriptor: 'HUGE 100' } });
          expect(response.status).toBe(400);
          expect(response.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'amount' }] } });
          expect((await api.get(`/cards/${card.id}/transactions?limit=1`)).body.data[0]?.id).toBe(before);
        },
      );

      it('refuses a currency the card does not take, naming the field', async () => {
        const response = await simulate(card.id, 'authorization', { amount: 100, currency: { code: 'EUR' }, merchant: { descriptor: 'X 100' } });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'INVALID_CURRENCY', details: { field: 'currency.code' } });
      });
    });

    describe('balance_inquiry', () => {
      it.each([
        ['100', 'SETTLED', undefined],
        ['002', 'DECLINED', 'INSUFFICIENT_FUNDS'],
        ['003', 'DECLINED', 'CARD_PAUSED'],
      ])('descriptor suffix %s: 202, a zero-amount card transaction %s (%s), no money moved', async (suffix, status, declineReason) => {
        const before = await balance(who.wallet);
        const response = await simulate(card.id, 'balance_inquiry', { merchant: { descriptor: `FUEL PUMP ${suffix}`, mcc: '5541', country: 'US' } });
        expect(response.status).toBe(202);
        expect(response.body).toEqual({ issuerTransactionToken: expect.stringMatching(/^itx_[0-9a-f]{32}$/) });
        const id = idOfToken(response.body.issuerTransactionToken);
        expect(await transaction(id)).toMatchObject({
          type: 'CARD',
          operation: 'BALANCE_INQUIRY',
          status,
          ...(declineReason ? { declineReason } : {}),
          authorizedAmount: money(0),
          settledAmount: money(0),
          issuerTransactionToken: response.body.issuerTransactionToken,
        });
        expect(await balance(who.wallet)).toBe(before);
        expect(await webhookTypes(id, 1)).toEqual([`CARD_TRANSACTION.${status}`]);
      });

      it('a frozen card declines it with CARD_PAUSED', async () => {
        const frozen = await activeCard(who);
        expect((await patch(frozen.id, { state: 'FROZEN' }, who)).status).toBe(200);
        const response = await simulate(frozen.id, 'balance_inquiry', { merchant: { descriptor: 'ATM 100' } });
        expect(await transaction(idOfToken(response.body.issuerTransactionToken))).toMatchObject({ status: 'DECLINED', declineReason: 'CARD_PAUSED' });
      });
    });

    describe('authorization_advice', () => {
      it('re-sizes an open authorization up and down; the hold follows, and the clearing posts the new total', async () => {
        const before = await balance(who.wallet);
        const auth = await authorize(card.id, 1_000_000);
        const up = await simulate(card.id, 'authorization_advice', { cardTransactionId: auth.body.id, amount: 1_500_000 });
        expect(up.status).toBe(202);
        expect(up.body).toEqual({ issuerTransactionToken: auth.body.issuerTransactionToken });
        expect(await transaction(auth.body.id)).toMatchObject({ status: 'CONFIRMED', authorizedAmount: money(1_500_000) });
        expect(await balance(who.wallet)).toBe(before - 1_500_000);
        expect((await simulate(card.id, 'authorization_advice', { cardTransactionId: auth.body.id, amount: 500_000 })).status).toBe(202);
        expect(await balance(who.wallet)).toBe(before - 500_000);
        const cleared = await simulate(card.id, 'clearing', { cardTransactionId: auth.body.id, amount: 500_000 });
        expect(cleared.body).toMatchObject({ status: 'SETTLED', authorizedAmount: money(500_000), settledAmount: money(500_000) });
        expect(await balance(who.wallet)).toBe(before - 500_000);
        expect(await webhookTypes(auth.body.id, 4)).toEqual([
          'CARD_TRANSACTION.AUTHORIZED',
          'CARD_TRANSACTION.AUTHORIZED',
          'CARD_TRANSACTION.AUTHORIZED',
          'CARD_TRANSACTION.SETTLED',
        ]);
      });

      it('refuses a transaction that is no open authorization (409), and one of another card (404)', async () => {
        const auth = await authorize(card.id, 100_000);
        await simulate(card.id, 'clearing', { cardTransactionId: auth.body.id, amount: 100_000 });
        const settled = await simulate(card.id, 'authorization_advice', { cardTransactionId: auth.body.id, amount: 200_000 });
        expect(settled.status).toBe(409);
        expect(settled.body.code).toBe('INVALID_STATE_TRANSITION');
        const otherCard = await activeCard(who);
        const elsewhere = await simulate(otherCard.id, 'authorization_advice', { cardTransactionId: auth.body.id, amount: 200_000 });
        expect(elsewhere.status).toBe(404);
        expect(elsewhere.body.code).toBe('TRANSACTION_NOT_FOUND');
      });
    });

    describe('return_reversal', () => {
      it('takes a refunded amount again and settles the transaction anew; it can then be returned again', async () => {
        const before = await balance(who.wallet);
        const auth = await authorize(card.id, 2_000_000);
        await simulate(card.id, 'clearing', { cardTransactionId: auth.body.id, amount: 2_000_000 });
        expect((await simulate(card.id, 'return', { cardTransactionId: auth.body.id, amount: 2_000_000 })).body.status).toBe('REFUNDED');
        expect(await balance(who.wallet)).toBe(before);
        const reversed = await simulate(card.id, 'return_reversal', { cardTransactionId: auth.body.id });
        expect(reversed.status).toBe(202);
        expect(reversed.body).toEqual({ issuerTransactionToken: auth.body.issuerTransactionToken });
        expect(await transaction(auth.body.id)).toMatchObject({ status: 'SETTLED', settledAmount: money(2_000_000), refundedAmount: money(0) });
        expect(await balance(who.wallet)).toBe(before - 2_000_000);
        const again = await simulate(card.id, 'return', { cardTransactionId: auth.body.id, amount: 2_000_000 });
        expect(again.body).toMatchObject({ status: 'REFUNDED', refundedAmount: money(2_000_000) });
        expect(await balance(who.wallet)).toBe(before);
        expect(await webhookTypes(auth.body.id, 5)).toEqual([
          'CARD_TRANSACTION.AUTHORIZED',
          'CARD_TRANSACTION.SETTLED',
          'CARD_TRANSACTION.REFUNDED',
          'CARD_TRANSACTION.SETTLED',
          'CARD_TRANSACTION.REFUNDED',
        ]);
      });

      it('raises EXCEPTION (RETURN_REVERSAL_FAILED) when the funding source no longer covers it', async () => {
        const owner = await newHolder();
        const ownCard = await activeCard(owner);
        await fund(owner.wallet, 1_000_000);
        const auth = await authorize(ownCard.id, 1_000_000);
        await simulate(ownCard.id, 'clearing', { cardTransactionId: auth.body.id, amount: 1_000_000 });
        await simulate(ownCard.id, 'return', { cardTransactionId: auth.body.id, amount: 1_000_000 });
        expect((await authorize(ownCard.id, 1_000_000)).body.status).toBe('CONFIRMED');
        const reversed = await simulate(ownCard.id, 'return_reversal', { cardTransactionId: auth.body.id });
        expect(reversed.status).toBe(202);
        expect(await transaction(auth.body.id)).toMatchObject({
          status: 'EXCEPTION',
          exception: { urgency: 'HIGH', reason: 'RETURN_REVERSAL_FAILED', message: expect.any(String) },
        });
      });

      it('refuses a transaction that is not REFUNDED with 409', async () => {
        const auth = await authorize(card.id, 100_000);
        const response = await simulate(card.id, 'return_reversal', { cardTransactionId: auth.body.id });
        expect(response.status).toBe(409);
        expect(response.body.code).toBe('INVALID_STATE_TRANSITION');
      });
    });

    describe('reveal', () => {
      it('mints a single-use URL of a page showing a card number that ends in last4 and passes the Luhn check', async () => {
        const response = await api.post(`/cards/${card.id}/reveal`, {});
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ panEmbedUrl: expect.stringMatching(/^http:\/\/[^/]+\/card-reveal\/[A-Za-z0-9_-]{20,}$/), expiresAt: expect.any(String) });
        expect(Date.parse(response.body.expiresAt)).toBeGreaterThan(Date.now());
        const page = await fetch(response.body.panEmbedUrl);
        expect(page.status).toBe(200);
        expect(page.headers.get('cache-control')).toBe('no-store');
        const html = await page.text();
        const pan = /data-field="pan">([\d ]+)</.exec(html)![1].replace(/ /g, '');
        expect(pan).toMatch(/^4\d{15}$/);
        expect(pan.endsWith(card.last4)).toBe(true);
        const luhn = [...pan].reverse().reduce((sum, c, i) => sum + (i % 2 ? (Number(c) * 2 > 9 ? Number(c) * 2 - 9 : Number(c) * 2) : Number(c)), 0);
        expect(luhn % 10).toBe(0);
        expect(html).toMatch(/data-field="cvv">\d{3}</);
        // The same card shows the same details on a second reveal; a used URL shows nothing.
        expect((await fetch(response.body.panEmbedUrl)).status).toBe(410);
        const second = await api.post(`/cards/${card.id}/reveal`, {});
        expect(await (await fetch(second.body.panEmbedUrl)).text()).toContain(/data-field="pan">([\d ]+)</.exec(html)![1]);
        const logged = logLines.join('');
        for (const secret of [pan, new URL(response.body.panEmbedUrl).pathname.split('/').pop()!]) expect(logged).not.toContain(secret);
        // The audit line (the cards service logs in this process only in embedded mode).
        if (t.mode === 'embedded') expect(logged).toMatch(new RegExp(`"audit":"card\\.reveal","cardId":"${card.id}"`));
      });

      it("answers 404 for an unknown card and for another platform's card; 409 for a card not provisioned yet", async () => {
        const other = await t.newPlatform();
        for (const [client_, id] of [
          [api, 'Card:00000000-0000-7000-8000-000000000000'],
          [other.api, card.id],
        ] as const) {
          const response = await client_.post(`/cards/${id}/reveal`, {});
          expect(response.status).toBe(404);
          expect(response.body.code).toBe('REFERENCE_NOT_FOUND');
        }
        const processing = (await issue({ platformCardId: `reveal-${Math.random().toString(36).slice(2, 6)}-001` }, who)).body;
        const refused = await api.post(`/cards/${processing.id}/reveal`, {});
        expect(refused.status).toBe(409);
        expect(refused.body.code).toBe('CONFLICT');
      });
    });

    describe('GET /transactions/{transactionId}', () => {
      it('answers a card transaction in the reference transaction shape; another platform gets 404', async () => {
        const auth = await authorize(card.id, 10_000);
        const response = await api.get(`/transactions/${auth.body.id}`);
        expect(response.status).toBe(200);
        expect(response.body).toEqual((await api.get(`/card-transactions/${auth.body.id}`)).body);
        expect(response.body).toMatchObject({ type: 'CARD', direction: 'DEBIT', customerId: who.customerId, platformCustomerId: expect.any(String), status: 'CONFIRMED' });
        const customer = await api.get(`/customers/${who.customerId}`);
        expect(response.body.platformCustomerId).toBe(customer.body.platformCustomerId);
        const other = await t.newPlatform();
        const foreign = await other.api.get(`/transactions/${auth.body.id}`);
        expect(foreign.status).toBe(404);
        expect(foreign.body.code).toBe('TRANSACTION_NOT_FOUND');
      });
    });

    describe('GET /transactions', () => {
      it('lists card transactions (type CARD) with the payments, newest first, page after page; a type filter leaves them out', async () => {
        const owner = await newHolder();
        const ownCard = await activeCard(owner);
        await fund(owner.wallet, 1_000_000);
        const first = (await authorize(ownCard.id, 1_000)).body;
        const second = (await authorize(ownCard.id, 2_000)).body;
        const seen: Array<{ id: string; type: string }> = [];
        const totals: number[] = [];
        let cursor: string | undefined;
        do {
          const page = await api.get(`/transactions?customerId=${encodeURIComponent(owner.customerId)}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
          expect(page.status).toBe(200);
          expect(page.body.data).toHaveLength(1);
          seen.push(...page.body.data);
          totals.push(page.body.totalCount);
          cursor = page.body.hasMore ? page.body.nextCursor : undefined;
        } while (cursor);
        const cards = seen.filter((item) => item.type === 'CARD').map((item) => item.id);
        expect(cards).toEqual([second.id, first.id]);
        // totalCount counts payments and card transactions on every page, the same on each.
        expect(totals).toEqual(seen.map(() => seen.length));
        const uuids = seen.map((item) => item.id.slice(item.id.indexOf(':') + 1));
        expect([...uuids].sort().reverse()).toEqual(uuids);
        expect(seen.find((item) => item.id === second.id)).toEqual((await api.get(`/card-transactions/${second.id}`)).body);
        const outgoing = await api.get(`/transactions?customerId=${encodeURIComponent(owner.customerId)}&type=OUTGOING`);
        expect(outgoing.body.data.some((item: { type: string }) => item.type === 'CARD')).toBe(false);
        expect(outgoing.body.totalCount).toBe(outgoing.body.data.length);
        const other = await t.newPlatform();
        expect((await other.api.get(`/transactions?customerId=${encodeURIComponent(owner.customerId)}`)).body.data).toEqual([]);
      });

      it('refuses a cursor it never issued, naming the field', async () => {
        const response = await api.get(`/transactions?cursor=${Buffer.from('nope').toString('base64url')}`);
        expect(response.status).toBe(400);
        expect(response.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['cursor']);
      });
    });

    it('documents the card routes and simulators in /openapi.json', async () => {
      const document = (await (await fetch(`${t.stack.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
      for (const path of ['/cards', '/cards/{id}', '/cards/{id}/reveal', '/transactions/{transactionId}']) expect(Object.keys(document.paths)).toContain(path);
      for (const kind of ['authorization', 'balance_inquiry', 'authorization_advice', 'credit_authorization_advice', 'clearing', 'return', 'return_reversal']) {
        expect(Object.keys(document.paths)).toContain(`/sandbox/cards/{id}/simulate/${kind}`);
      }
    });
  });

  describe('freeze and close with lifecycles in flight', () => {
    it('a frozen card declines new authorizations with CARD_PAUSED while clearings and returns continue', async () => {
      const who = await newHolder();
      const card = await activeCard(who);
      await fund(who.wallet, 10_000_000);
      const auth = await authorize(card.id, 1_000_000);
      expect((await patch(card.id, { state: 'FROZEN' }, who)).status).toBe(200);
      const declined = await authorize(card.id, 1_000_000);
      expect(declined.body).toMatchObject({ status: 'DECLINED', declineReason: 'CARD_PAUSED' });
      const cleared = await simulate(card.id, 'clearing', { cardTransactionId: auth.body.id, amount: 1_000_000 });
      expect(cleared.body.status).toBe('SETTLED');
      const returned = await simulate(card.id, 'return', { cardTransactionId: auth.body.id, amount: 1_000_000 });
      expect(returned.body.status).toBe('REFUNDED');
      expect(await balance(who.wallet)).toBe(10_000_000);
      expect((await patch(card.id, { state: 'ACTIVE' }, who)).status).toBe(200);
      expect((await authorize(card.id, 1_000_000)).body.status).toBe('CONFIRMED');
    });

    it('closing releases open authorizations, lets returns complete, and force-posts a late clearing', async () => {
      const who = await newHolder();
      const card = await activeCard(who);
      await fund(who.wallet, 10_000_000);
      const open = await authorize(card.id, 2_000_000);
      const settled = await authorize(card.id, 1_000_000);
      await simulate(card.id, 'clearing', { cardTransactionId: settled.body.id, amount: 1_000_000 });
      expect(await balance(who.wallet)).toBe(7_000_000);

      const closed = await patch(card.id, { state: 'CLOSED' }, who);
      expect(closed.body).toMatchObject({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [] });
      const expired = await eventually(async () => {
        const fetched = await api.get(`/card-transactions/${open.body.id}`);
        return fetched.body.status === 'EXPIRED' ? fetched.body : undefined;
      });
      expect(expired.expiryReason).toBe('CARD_CLOSED');
      expect(await balance(who.wallet)).toBe(9_000_000);

      const returned = await simulate(card.id, 'return', { cardTransactionId: settled.body.id, amount: 1_000_000 });
      expect(returned.body.status).toBe('REFUNDED');
      expect(await balance(who.wallet)).toBe(10_000_000);

      const late = await simulate(card.id, 'clearing', { cardTransactionId: open.body.id, amount: 1_500_000 });
      expect(late.body).toMatchObject({ status: 'SETTLED', forcePosted: true, settledAmount: money(1_500_000) });
      expect(await balance(who.wallet)).toBe(8_500_000);

      expect((await authorize(card.id, 100)).body).toMatchObject({ status: 'DECLINED', declineReason: 'CARD_CLOSED' });
    });
  });

  describe('webhooks', () => {
    let server: Server;
    const received: Array<{ type: string; data: any }> = [];

    beforeAll(async () => {
      server = createServer((request, response) => {
        let raw = '';
        request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        request.on('end', () => {
          received.push(JSON.parse(raw) as { type: string; data: any });
          response.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      expect((await api.patch('/config', { webhookEndpoint: `http://127.0.0.1:${port}/hooks` })).status).toBe(200);
    });

    afterAll(async () => {
      await api.patch('/config', { webhookEndpoint: null });
      await new Promise((resolve) => server.close(resolve));
    });

    async function delivered(type: string, id: string): Promise<any> {
      return eventually(async () => received.find((hook) => hook.type === type && hook.data.id === id)?.data);
    }

    it('delivers CARD.STATE_CHANGE and CARD_TRANSACTION.* with the resources exactly as GET returns them', async () => {
      const who = await newHolder();
      const card = await activeCard(who);
      await fund(who.wallet, 1_000_000);
      const auth = await authorize(card.id, 400_000);
      const cleared = await simulate(card.id, 'clearing', { cardTransactionId: auth.body.id, amount: 400_000 });
      expect(await delivered('CARD_TRANSACTION.AUTHORIZED', auth.body.id)).toEqual(auth.body);
      expect(await delivered('CARD_TRANSACTION.SETTLED', auth.body.id)).toEqual((await api.get(`/card-transactions/${auth.body.id}`)).body);
      expect(cleared.body.status).toBe('SETTLED');
      const frozen = await patch(card.id, { state: 'FROZEN' }, who);
      expect(await delivered('CARD.STATE_CHANGE', card.id)).toEqual(frozen.body);
      expect(frozen.body).toEqual((await api.get(`/cards/${card.id}`)).body);
    });
  });

  describe('concurrency', () => {
    it('100 concurrent authorizations on one card funded for 50 approve exactly 50', async () => {
      const who = await newHolder();
      const card = await activeCard(who);
      await fund(who.wallet, 50 * 10_000);
      const results = await Promise.all(Array.from({ length: 100 }, () => authorize(card.id, 10_000)));
      expect(results.every((r) => r.status === 202)).toBe(true);
      const statuses = results.map((r) => r.body.status);
      expect(statuses.filter((s) => s === 'CONFIRMED')).toHaveLength(50);
      expect(statuses.filter((s) => s === 'DECLINED')).toHaveLength(50);
      expect(results.filter((r) => r.body.status === 'DECLINED').every((r) => r.body.declineReason === 'INSUFFICIENT_FUNDS')).toBe(true);
      expect(await balance(who.wallet)).toBe(0);
    });
  });
  describe('poison messages (issue 19)', () => {
    it("a poisoned advice event behind the validation is parked by the cards worker, another platform's later advice is applied, and an operator replay runs it once more", async () => {
      const card = await activeCard();
      const other = await t.newPlatform();
      const cards = t.stack.services.get('cards')!.get(DataSource);
      // What `merchant: []` used to become (the simulator now answers 400): written straight into the
      // cards outbox, as a bug or an older release could, for another platform's card transaction.
      const poisonId = newId('CardTransaction');
      const poison: DomainEvent = {
        eventId: uuidv7(),
        subject: CARDS_WORK_EVENTS.adviceReceived,
        occurredAt: new Date().toISOString(),
        platformId: other.platformId,
        schemaVersion: contractVersion(CARDS_WORK_EVENTS.adviceReceived),
        resourceId: poisonId,
        data: { cardId: card.id, cardTransactionId: poisonId, issuerTransactionToken: 'itx_poison', amount: 100, currency: USDC, merchant: [] },
      };
      await cards.query(`INSERT INTO outbox_event (id, subject, event) VALUES ($1, $2, $3)`, [poison.eventId, poison.subject, JSON.stringify(poison)]);

      // Published after it, and applied: nothing waits behind the poison.
      const response = await authorize(card.id, 250_000, 'REFUND DESK 100', 'credit_authorization_advice');
      expect(response.status).toBe(202);
      const token: string = response.body.issuerTransactionToken;
      const id = `CardTransaction:${token.slice(4, 12)}-${token.slice(12, 16)}-${token.slice(16, 20)}-${token.slice(20, 24)}-${token.slice(24)}`;
      expect(await webhookTypes(id, 1)).toEqual(['CARD_TRANSACTION.SETTLED']);

      const letter = await eventually(() =>
        cards
          .getRepository(DeadLetterEntity)
          .findOneBy({ messageId: poison.eventId })
          .then((row) => row ?? undefined),
      );
      expect(letter).toMatchObject({
        source: 'event-consumer',
        consumer: CARDS_WORKER_CONSUMER,
        subject: CARDS_WORK_EVENTS.adviceReceived,
        resourceKey: poisonId,
        platformId: other.platformId,
        // Unreadable (it breaks the event contract): no retry can cure it, so parked at the first failure.
        attempts: 1,
        error: expect.stringContaining('merchant'),
        parkedCount: 1,
      });
      expect((await cards.query(`SELECT count(*)::int AS n FROM outbox_event WHERE id = $1`, [poison.eventId]))[0].n).toBe(0);
      expect((await api.get(`/card-transactions/${poisonId}`)).status).toBe(404);

      // The operator command: listed, then replayed once by the running service (it fails again, so it is parked again).
      const output: string[] = [];
      const databases = new Map([['cards', cards]]);
      expect(await deadLetterCommand(['list'], databases, (text) => output.push(text))).toBe(0);
      expect(output.join('')).toContain(`${letter.id}  cards  event-consumer  ${CARDS_WORKER_CONSUMER}`);
      expect(await deadLetterCommand(['replay', letter.id], databases, (text) => output.push(text))).toBe(0);
      // Embedded mode reads replay requests at start (the command needs the server stopped there);
      // the running stack is asked to read them now, as its next start would.
      if (stackMode() === 'embedded') await t.stack.services.get('cards')!.get(DeadLetterStore).replayRequested();
      const again = await eventually(
        () =>
          cards
            .getRepository(DeadLetterEntity)
            .findOneBy({ id: letter.id })
            .then((row) => (row && row.parkedCount === 2 ? row : undefined)),
        // The service looks for requested replays every 10 s.
        30_000,
      );
      expect(again).toMatchObject({ replayRequestedAt: null, replayedAt: null, attempts: 1 });
    }, 60_000);
  });
});
