import { ed25519 } from '@noble/curves/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { ACCOUNT_TYPES, AccountType, CORRIDORS, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { base58Encode, evmAddress } from '../../apps/external-accounts/src/external-accounts/wallet-signatures';
import { eventually, startTestStack, TestStack } from '../support/test-stack';
import { WebhookReceiver } from './customers.support';

const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

/** A valid create body for `type`, built only from its corridor (every field's example, a beneficiary meeting its minimums). */
function exampleBody(type: AccountType): { currency: string; accountInfo: Record<string, unknown> } {
  const corridor = CORRIDORS[type];
  const accountInfo: Record<string, unknown> = { accountType: type };
  for (const [name, field] of Object.entries(corridor.fields)) if (field.required) accountInfo[name] = field.example;
  for (const name of corridor.oneOf?.slice(0, 1) ?? []) accountInfo[name] = corridor.fields[name].example;
  if (type === 'SWIFT_ACCOUNT') delete accountInfo.iban;
  if (corridor.beneficiary === 'bank') {
    accountInfo.beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Santos', address, countryOfResidence: 'US', phoneNumber: '+15555550100' };
  }
  return { currency: corridor.currencies?.[0] ?? 'SGD', accountInfo };
}

/** An EIP-191 personal-message signature, as a wallet makes it. */
function personalSign(privateKey: Uint8Array, text: string): string {
  const body = new TextEncoder().encode(text);
  const digest = keccak_256(new Uint8Array([...new TextEncoder().encode(`\x19Ethereum Signed Message:\n${body.length}`), ...body]));
  const signature = secp256k1.sign(digest, privateKey);
  return `0x${signature.toCompactHex()}${(27 + signature.recovery).toString(16)}`;
}

describe('External accounts: every corridor of the reference, payment rails, ownership of wallets', () => {
  let t: TestStack;
  let customerId: string;
  let platformId: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestStack();
    receiver = await WebhookReceiver.attach(t.api);
    const { CredentialsService } = await import('../../apps/gateway/src/auth/credentials.service');
    platformId = (await t.stack.http.get(CredentialsService).listPlatforms())[0].id;
    const created = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Corridor Owner' });
    customerId = created.body.id;
  });

  afterAll(async () => {
    await receiver?.close();
    await t?.stop();
  });

  describe('a valid create of every type, customer and platform', () => {
    it.each(ACCOUNT_TYPES.map((type) => [type]))('%s', async (type) => {
      const payload = exampleBody(type);
      const customer = await t.api.post('/customers/external-accounts', { customerId, ...payload });
      expect(customer.status).toBe(201);
      const rails = CORRIDORS[type].paymentRails;
      expect(customer.body).toMatchObject({ customerId, currency: payload.currency, accountInfo: { ...payload.accountInfo } });
      if (rails.length > 0) expect(rails).toEqual(expect.arrayContaining(customer.body.accountInfo.paymentRails));
      else expect(customer.body.accountInfo.paymentRails).toBeUndefined();
      expect((await t.api.get(`/customers/external-accounts/${customer.body.id}`)).body).toEqual(customer.body);
      const platform = await t.api.post('/platform/external-accounts', payload);
      expect(platform.status).toBe(201);
      expect(platform.body.customerId).toBeUndefined();
    });
  });

  it('lists by currency', async () => {
    const response = await t.api.get(`/customers/external-accounts?customerId=${customerId}&currency=USDC&limit=100`);
    expect(response.status).toBe(200);
    expect(response.body.data.length).toBeGreaterThan(0);
    for (const account of response.body.data) expect(account.currency).toBe('USDC');
  });

  it("accepts the reference API's own example body: platformAccountId inside accountInfo, a routing number failing its check digit (a warning)", async () => {
    const response = await t.api.post('/customers/external-accounts', {
      customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '12345678901',
        routingNumber: '123456789',
        bankAccountType: 'CHECKING',
        bankName: 'Chase Bank',
        platformAccountId: 'ext_acc_123456',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe', birthDate: '1990-01-15', nationality: 'US', address: { ...address, state: 'CA' } },
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      platformAccountId: 'ext_acc_123456',
      accountInfo: { paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] },
      warnings: [expect.objectContaining({ field: 'accountInfo.routingNumber' })],
    });
    expect(response.body.accountInfo.platformAccountId).toBeUndefined();
  });

  it('a bank outside the discovery list is a warning where SPEC.md does not require a listed bank, an error for PHP', async () => {
    const ngn = await t.api.post('/customers/external-accounts', {
      customerId,
      ...exampleBody('NGN_ACCOUNT'),
      accountInfo: { ...exampleBody('NGN_ACCOUNT').accountInfo, bankName: 'Bank of Lagos' },
    });
    expect(ngn.status).toBe(201);
    expect(ngn.body.warnings).toEqual([expect.objectContaining({ field: 'accountInfo.bankName' })]);
    const php = await t.api.post('/customers/external-accounts', {
      customerId,
      ...exampleBody('PHP_ACCOUNT'),
      accountInfo: { ...exampleBody('PHP_ACCOUNT').accountInfo, bankName: 'BDO', accountNumber: '12' },
    });
    expect(php.status).toBe(400);
    expect(php.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['accountInfo.accountNumber', 'accountInfo.bankName']);
  });

  it('an update lists every problem at once too: a bank outside the PHP list, a bad account number, an accountType of another currency', async () => {
    const created = await t.api.post('/customers/external-accounts', {
      customerId,
      ...exampleBody('PHP_ACCOUNT'),
      accountInfo: { ...exampleBody('PHP_ACCOUNT').accountInfo, accountNumber: '998877665544' },
    });
    expect(created.status).toBe(201);
    const bad = await t.api.patch(`/customers/external-accounts/${created.body.id}`, {
      accountInfo: { ...created.body.accountInfo, paymentRails: undefined, bankName: 'BDO', accountNumber: '12' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['accountInfo.accountNumber', 'accountInfo.bankName']);
    const other = await t.api.patch(`/customers/external-accounts/${created.body.id}`, { accountInfo: exampleBody('USD_ACCOUNT').accountInfo });
    expect(other.body.details.errors).toEqual([expect.objectContaining({ field: 'accountInfo.accountType', constraint: { enum: ['PHP_ACCOUNT', 'SWIFT_ACCOUNT'] } })]);
  });

  it.each([
    ['BD', 'BDT'],
    ['HK', 'HKD'],
    ['ID', 'IDR'],
    ['VN', 'VND'],
    ['GT', 'GTQ'],
  ])('GET /discoveries lists the banks of %s (%s)', async (country, currency) => {
    const response = await t.api.get(`/discoveries?country=${country}&currency=${currency}`);
    expect(response.status).toBe(200);
    expect(response.body.data.length).toBeGreaterThan(0);
    for (const entry of response.body.data) expect(entry).toMatchObject({ country, currency });
  });

  describe('sandbox name verification reads the last 3 digits of each identifier kind', () => {
    it.each([
      ['account number', 'HKD_ACCOUNT', { accountNumber: '123456102' }, 'NOT_MATCHED'],
      ['IBAN', 'DKK_ACCOUNT', { iban: 'DK5000400040116103' }, 'PARTIAL_MATCH'],
      ['phone', 'BWP_ACCOUNT', { phoneNumber: '+26771234106' }, 'UNSUPPORTED'],
    ] as const)('%s (%s)', async (_, type, changes, verification) => {
      const payload = exampleBody(type);
      const response = await t.api.post('/customers/external-accounts', { customerId, ...payload, accountInfo: { ...payload.accountInfo, ...changes } });
      expect(response.status).toBe(201);
      expect(response.body.beneficiaryVerificationStatus).toBe(verification);
    });

    it('wallet address (105 refuses it)', async () => {
      const response = await t.api.post('/customers/external-accounts', {
        customerId,
        currency: 'USDC',
        accountInfo: { accountType: 'ETHEREUM_WALLET', address: `0x${'1'.repeat(37)}105` },
      });
      expect(response).toMatchObject({ status: 400, body: { code: 'INVALID_BANK_ACCOUNT' } });
    });
  });

  describe('ownership of a first-party self-custody wallet', () => {
    const key = secp256k1.utils.randomPrivateKey();
    const wallet = evmAddress(keccak_256(secp256k1.getPublicKey(key, false).slice(1)).slice(-20));

    it('WALLET_SIGNATURE: pending until the wallet signs the challenge; a wrong signature makes it UNVERIFIED; a new challenge and the right one make it ACTIVE', async () => {
      const created = await t.api.post('/customers/external-accounts', {
        customerId,
        currency: 'USDC',
        ownershipType: 'FIRST_PARTY',
        accountInfo: { accountType: 'BASE_WALLET', address: wallet, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Santos', countryOfResidence: 'DE' } },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ status: 'PENDING_OWNERSHIP_VERIFICATION', ownershipType: 'FIRST_PARTY' });
      const id = created.body.id;

      expect((await t.api.post(`/customers/external-accounts/${id}/verify`, { signature: '0x00' })).status).toBe(409);
      const first = await t.api.post(`/customers/external-accounts/${id}/challenge`, { method: 'WALLET_SIGNATURE' });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ method: 'WALLET_SIGNATURE', messageToSign: expect.stringContaining(wallet), expiresAt: expect.any(String) });
      const wrong = await t.api.post(`/customers/external-accounts/${id}/verify`, { signature: personalSign(key, `${first.body.messageToSign} (edited)`) });
      expect(wrong).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT' } });
      expect((await t.api.get(`/customers/external-accounts/${id}`)).body.status).toBe('UNVERIFIED');

      const second = await t.api.post(`/customers/external-accounts/${id}/challenge`, { method: 'WALLET_SIGNATURE' });
      expect((await t.api.get(`/customers/external-accounts/${id}`)).body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
      const verified = await t.api.post(`/customers/external-accounts/${id}/verify`, { signature: personalSign(key, second.body.messageToSign) });
      expect(verified.status).toBe(200);
      expect(verified.body).toMatchObject({ id, status: 'ACTIVE' });
      expect((await t.api.post(`/customers/external-accounts/${id}/challenge`, { method: 'WALLET_SIGNATURE' })).status).toBe(409);

      const events = await eventually(async () => {
        const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: id }, { platformId, environment: 'sandbox', requestId: 'test' });
        return received.filter((e) => e.webhookType === 'EXTERNAL_ACCOUNT.STATUS_UPDATED').length >= 3 ? received : undefined;
      });
      // UNVERIFIED, then PENDING_OWNERSHIP_VERIFICATION again, then ACTIVE.
      expect(events.filter((e) => e.webhookType === 'EXTERNAL_ACCOUNT.STATUS_UPDATED')).toHaveLength(3);
      const delivered = await eventually(async () => {
        const mine = receiver.received.filter((r) => r.payload.type === 'EXTERNAL_ACCOUNT.STATUS_UPDATED' && r.payload.data?.id === id);
        return mine.length >= 3 ? mine : undefined;
      }, 30_000);
      expect(delivered.every((r) => r.verified)).toBe(true);
      expect(delivered.map((r) => r.payload.data.status).sort()).toEqual(['ACTIVE', 'PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED']);
      expect(delivered.find((r) => r.payload.data.status === 'ACTIVE')!.payload).toEqual({
        id: expect.any(String),
        type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED',
        timestamp: expect.any(String),
        data: verified.body,
      });
    });

    it('a Solana wallet on the platform proves ownership with an Ed25519 signature', async () => {
      const secret = ed25519.utils.randomPrivateKey();
      const solana = base58Encode(ed25519.getPublicKey(secret));
      const created = await t.api.post('/platform/external-accounts', {
        currency: 'USDC',
        ownershipType: 'FIRST_PARTY',
        accountInfo: { accountType: 'SOLANA_WALLET', address: solana },
      });
      expect(created.body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
      const challenge = await t.api.post(`/platform/external-accounts/${created.body.id}/challenge`, { method: 'WALLET_SIGNATURE' });
      const signature = base58Encode(ed25519.sign(new TextEncoder().encode(challenge.body.messageToSign), secret));
      const verified = await t.api.post(`/platform/external-accounts/${created.body.id}/verify`, { signature });
      expect(verified).toMatchObject({ status: 200, body: { status: 'ACTIVE' } });
    });

    it.each([
      ['555', 'ACTIVE'],
      ['002', 'UNVERIFIED'],
    ])('LIVENESS completes on its own (address ending %s: %s)', async (suffix, status) => {
      const created = await t.api.post('/customers/external-accounts', {
        customerId,
        currency: 'USDT',
        ownershipType: 'FIRST_PARTY',
        accountInfo: { accountType: 'POLYGON_WALLET', address: `0x${'ab'.repeat(18)}f${suffix}` },
      });
      expect(created.status).toBe(201);
      const challenge = await t.api.post(`/customers/external-accounts/${created.body.id}/challenge`, { method: 'LIVENESS' });
      expect(challenge.body).toEqual({ method: 'LIVENESS', verificationLink: expect.stringMatching(/^https:\/\//), expiresAt: expect.any(String) });
      const done = await eventually(async () => {
        const response = await t.api.get(`/customers/external-accounts/${created.body.id}`);
        return response.body.status !== 'PENDING_OWNERSHIP_VERIFICATION' ? response.body : undefined;
      });
      expect(done.status).toBe(status);
    });

    it('answers 409 for accounts ownership verification does not apply to, 404 for another platform, 400 for a bad method', async () => {
      const hosted = await t.api.post('/customers/external-accounts', {
        customerId,
        currency: 'USDC',
        ownershipType: 'FIRST_PARTY',
        accountInfo: { accountType: 'ETHEREUM_WALLET', address: `0x${'cd'.repeat(20)}`, vaspName: 'Kraken' },
      });
      expect(hosted.body.status).toBe('ACTIVE');
      expect((await t.api.post(`/customers/external-accounts/${hosted.body.id}/challenge`, { method: 'WALLET_SIGNATURE' })).body.code).toBe('CONFLICT');
      const bad = await t.api.post(`/customers/external-accounts/${hosted.body.id}/challenge`, { method: 'SMS' });
      expect(bad.status).toBe(400);
      const other = await t.newPlatform();
      expect((await other.api.post(`/customers/external-accounts/${hosted.body.id}/challenge`, { method: 'WALLET_SIGNATURE' })).status).toBe(404);
      expect((await other.api.post(`/customers/external-accounts/${hosted.body.id}/verify`, { signature: '0x00' })).status).toBe(404);
    });
  });
});
