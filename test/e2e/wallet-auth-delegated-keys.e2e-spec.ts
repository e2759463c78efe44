import { p256 } from '@noble/curves/nist';
import { CUSTOMERS_SUBJECTS } from '@paykit/contracts';
import { ApiClient, ApiResponse } from '../support/api-client';
import { startTestStack, TestStack } from '../support/test-stack';
import { newClientKey, Session, stamp, Wallet, WalletAuthClient } from '../support/wallet-auth-client';

/**
 * Delegated signing keys through HTTP: the three signed legs of creation, one ACTIVE key per card
 * funding source, revocation, listing filters, validation and tenancy.
 */
describe('Embedded wallet authentication: delegated keys', () => {
  let t: TestStack;
  let api: ApiClient;
  let client: WalletAuthClient;

  interface Funded {
    wallet: Wallet;
    session: Session;
    cardId: string;
  }

  beforeAll(async () => {
    t = await startTestStack();
    const platform = await t.newPlatform();
    api = platform.api;
    // Regulated platforms' customers start APPROVED: they are ready for cards at once.
    await t.stack.runtime.client.request(
      CUSTOMERS_SUBJECTS.updateConfig,
      { regulated: true },
      { platformId: platform.platformId, environment: 'sandbox', requestId: 'delegated-keys' },
    );
    client = new WalletAuthClient(api);
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** A wallet with an OTP session and a card funded by it. */
  async function fundedCard(): Promise<Funded> {
    const wallet = await client.createWallet('delegated');
    const session = await client.otpLogin(wallet.emailCredentialId);
    const card = await api.post('/cards', { cardholderId: wallet.customerId, form: 'VIRTUAL', fundingSources: [wallet.accountId] });
    if (card.status !== 201) throw new Error(`card: ${card.status} ${JSON.stringify(card.body)}`);
    return { wallet, session, cardId: card.body.id };
  }

  function bodyFor(funded: Funded, nickname = 'Card payments key') {
    return { cardId: funded.cardId, internalAccountId: funded.wallet.accountId, nickname };
  }

  async function signedRetry(body: unknown, challenge: ApiResponse, session: Session): Promise<ApiResponse> {
    return api.post('/auth/delegated-keys', body, {
      headers: { 'service-wallet-signature': await stamp(challenge.body.payloadToSign, session.key), 'request-id': challenge.body.requestId },
    });
  }

  /** All three legs; the created key. */
  async function createKey(funded: Funded, nickname?: string): Promise<any> {
    const body = bodyFor(funded, nickname);
    const first = await api.post('/auth/delegated-keys', body);
    expect(first.status).toBe(202);
    const second = await signedRetry(body, first, funded.session);
    expect(second.status).toBe(202);
    const third = await signedRetry(body, second, funded.session);
    expect(third.status).toBe(201);
    return third.body;
  }

  it('creates a key in three signed legs: 202, 202, then 201 ACTIVE with a compressed P-256 public key', async () => {
    const funded = await fundedCard();
    const body = bodyFor(funded);
    const first = await api.post('/auth/delegated-keys', body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
    const second = await signedRetry(body, first, funded.session);
    expect(second.status).toBe(202);
    expect(second.body.requestId).not.toBe(first.body.requestId);
    // The first request id is spent.
    expect((await signedRetry(body, first, funded.session)).status).toBe(401);
    const third = await signedRetry(body, second, funded.session);
    expect(third.status).toBe(201);
    expect(third.body).toEqual({
      id: expect.stringMatching(/^DelegatedKey:/),
      cardId: funded.cardId,
      fundingSourceId: expect.stringMatching(/^CardFundingSource:[0-9a-f-]{36}$/),
      accountId: funded.wallet.accountId,
      publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/),
      nickname: 'Card payments key',
      status: 'ACTIVE',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(() => p256.Point.fromHex(third.body.publicKey)).not.toThrow();
    expect((await api.get(`/auth/delegated-keys/${third.body.id}`)).body).toEqual(third.body);
    const byAccount = await api.get(`/auth/delegated-keys?accountId=${encodeURIComponent(funded.wallet.accountId)}`);
    expect(byAccount.body.data).toEqual([third.body]);
    const bySource = await api.get(`/auth/delegated-keys?fundingSourceId=${encodeURIComponent(third.body.fundingSourceId)}`);
    expect(bySource.body.data).toEqual([third.body]);
  });

  it('keeps one ACTIVE key per card funding source; revoking makes room; a revoked key cannot be revoked again', async () => {
    const funded = await fundedCard();
    const key = await createKey(funded);
    const clash = await api.post('/auth/delegated-keys', bodyFor(funded, 'Another key'));
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('CONFLICT');

    const revoked = await api.delete(`/auth/delegated-keys/${key.id}`);
    expect(revoked.status).toBe(204);
    expect((await api.get(`/auth/delegated-keys/${key.id}`)).body.status).toBe('REVOKED');
    const again = await api.delete(`/auth/delegated-keys/${key.id}`);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_INPUT');

    const replacement = await createKey(funded, 'Replacement');
    expect(replacement.fundingSourceId).toBe(key.fundingSourceId);
    const listed = await api.get(`/auth/delegated-keys?accountId=${encodeURIComponent(funded.wallet.accountId)}`);
    expect(listed.body.data.map((k: any) => [k.nickname, k.status])).toEqual([
      ['Card payments key', 'REVOKED'],
      ['Replacement', 'ACTIVE'],
    ]);
  });

  it('leaves an abandoned creation PENDING without blocking the next one', async () => {
    const funded = await fundedCard();
    const body = bodyFor(funded, 'Abandoned');
    const first = await api.post('/auth/delegated-keys', body);
    expect((await signedRetry(body, first, funded.session)).status).toBe(202);
    const listed = await api.get(`/auth/delegated-keys?accountId=${encodeURIComponent(funded.wallet.accountId)}`);
    expect(listed.body.data.map((k: any) => k.status)).toEqual(['PENDING']);
    const pending = listed.body.data[0];
    expect((await api.delete(`/auth/delegated-keys/${pending.id}`)).status).toBe(400);
    expect((await createKey(funded, 'Completed')).status).toBe('ACTIVE');
  });

  it('needs a session of the funding account on the signed legs', async () => {
    const funded = await fundedCard();
    const body = bodyFor(funded);
    const first = await api.post('/auth/delegated-keys', body);
    const unsigned = await api.post('/auth/delegated-keys', body, {
      headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, newClientKey()), 'request-id': first.body.requestId },
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.code).toBe('WALLET_SIGNATURE_INVALID');
    const otherBody = await api.post(
      '/auth/delegated-keys',
      { ...body, nickname: 'Changed' },
      {
        headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, funded.session.key), 'request-id': first.body.requestId },
      },
    );
    expect(otherBody.status).toBe(401);
    expect(otherBody.body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
  });

  it('answers 404 for a card the account does not fund, and for an unknown card', async () => {
    const funded = await fundedCard();
    const other = await fundedCard();
    const notFunding = await api.post('/auth/delegated-keys', { cardId: funded.cardId, internalAccountId: other.wallet.accountId, nickname: 'x' });
    expect(notFunding.status).toBe(404);
    const unknownCard = await api.post('/auth/delegated-keys', { cardId: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69', internalAccountId: funded.wallet.accountId, nickname: 'x' });
    expect(unknownCard.status).toBe(404);
  });

  it('lists every invalid field at once, and needs a filter to list', async () => {
    const response = await api.post('/auth/delegated-keys', { cardId: 7, nickname: '' });
    expect(response.status).toBe(400);
    expect(response.body.details.errors.map((e: any) => e.field).sort()).toEqual(['cardId', 'internalAccountId', 'nickname']);
    const list = await api.get('/auth/delegated-keys');
    expect(list.status).toBe(400);
    expect(list.body.details.errors.map((e: any) => e.field).sort()).toEqual(['accountId', 'fundingSourceId']);
  });

  it("answers another platform's key as unknown", async () => {
    const funded = await fundedCard();
    const key = await createKey(funded);
    const other = await t.newPlatform();
    expect((await other.api.get(`/auth/delegated-keys/${key.id}`)).status).toBe(404);
    expect((await other.api.delete(`/auth/delegated-keys/${key.id}`)).status).toBe(404);
    const listed = await other.api.get(`/auth/delegated-keys?accountId=${encodeURIComponent(funded.wallet.accountId)}`);
    expect(listed.body.data).toEqual([]);
    expect((await other.api.post('/auth/delegated-keys', bodyFor(funded))).status).toBe(404);
  });
});
