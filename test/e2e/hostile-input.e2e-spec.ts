import { Agent } from 'node:http';
import { API_VERSION } from '@paykit/contracts';
import { eventually, startTestStack, TestStack } from '../support/test-stack';
import { usdExternalAccountBody } from '../support/payments-fixtures';
import { isErrorEnvelope, RawRequest, RawResponse, rawRequest } from '../support/raw-http';

const BASE = `/${API_VERSION}`;
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const SOME_CARD = 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';

/** A multipart body built by hand, so a file name can carry bytes a FormData would refuse or rewrite. */
function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }): { body: Buffer; contentType: string } {
  const boundary = 'paykit-hostile-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`, 'utf8'));
    parts.push(file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The hostile requests of issue 19, one by one, through HTTP: each answers a 4xx in the error
 * envelope (never a 5xx, never a framework's bare body), names the field where there is one, and
 * stores nothing.
 */
describe('Hostile input at the edge', () => {
  let t: TestStack;
  let send: (request: RawRequest) => Promise<RawResponse>;
  let customerId: string;

  beforeAll(async () => {
    t = await startTestStack();
    send = (request) => rawRequest(t.stack.url, { auth: t.credentials, ...request, path: request.path.startsWith('/') ? `${BASE}${request.path}` : request.path });
    const customer = await send({
      method: 'POST',
      path: '/customers',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Hostile Input Holder', email: 'holder@example.com' }),
    });
    expect(customer.status).toBe(201);
    customerId = customer.json.id;
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** Asserts the answer is `status` in the envelope and returns its body. */
  function expectEnvelope(response: RawResponse, status: number, code?: string): any {
    expect({ status: response.status, envelope: isErrorEnvelope(response), text: response.text.slice(0, 300) }).toEqual({
      status,
      envelope: true,
      text: expect.any(String),
    });
    if (code) expect(response.json.code).toBe(code);
    return response.json;
  }

  const fieldsOf = (body: any): string[] => (body.details?.errors ?? []).map((e: { field: string }) => e.field);

  it('a NUL or an undecodable byte in a path id is 400; a 5,000-character id is 404; an emoji id is 404 — all in the envelope', async () => {
    for (const path of [`/customers/Customer:abc%00`, `/cards/${SOME_CARD}%00`, `/sandbox/cards/${SOME_CARD}%00/simulate/clearing`, `/transactions/x%00y`]) {
      const body = expectEnvelope(
        await send({ method: path.includes('simulate') ? 'POST' : 'GET', path, headers: { 'content-type': 'application/json' }, body: '{}' }),
        400,
        'INVALID_INPUT',
      );
      expect(body.details.errors.length).toBeGreaterThan(0);
    }
    // Named by the gateway itself, before any service or query (the gateway's own /tokens included).
    for (const [path, field] of [
      ['/tokens/Token:x%00', 'tokenId'],
      ['/customers/%00', 'customerId'],
      ['/internal-accounts/a%00', 'accountId'],
    ]) {
      expect(fieldsOf(expectEnvelope(await send({ method: 'GET', path }), 400, 'INVALID_INPUT'))).toEqual([field]);
    }
    expectEnvelope(await send({ method: 'GET', path: '/customers/%ED%A0%80' }), 400, 'INVALID_INPUT');
    expectEnvelope(await send({ method: 'GET', path: `/customers/${'a'.repeat(5000)}` }), 404, 'REFERENCE_NOT_FOUND');
    expectEnvelope(await send({ method: 'DELETE', path: `/cards/${'C'.repeat(5000)}/transactions` }), 404);
    expectEnvelope(await send({ method: 'GET', path: `/cards/${encodeURIComponent('😀')}` }), 404);
  });

  it('oversized headers are 431 in the envelope', async () => {
    expectEnvelope(await send({ method: 'GET', path: '/customers', headers: { 'x-padding': 'a'.repeat(64 * 1024) } }), 431, 'HEADERS_TOO_LARGE');
  });

  it('a NUL in the Basic token id is 401 in the envelope, before any query', async () => {
    const authorization = `Basic ${Buffer.from('tok\u0000en:secret').toString('base64')}`;
    const body = expectEnvelope(await send({ method: 'GET', path: '/customers', headers: { authorization } }), 401, 'UNAUTHORIZED');
    expect(body.details.reason).toEqual(expect.any(String));
  });

  it('nesting 10,000 levels deep is 400 naming where it got too deep; so are NUL and lone surrogates, naming the field', async () => {
    const deep = `{"customerType":"INDIVIDUAL","fullName":"Deep","address":${'{"line1":'.repeat(10_000)}"x"${'}'.repeat(10_000)}}`;
    const nested = expectEnvelope(await send({ method: 'POST', path: '/customers', headers: { 'content-type': 'application/json' }, body: deep }), 400, 'INVALID_INPUT');
    expect(fieldsOf(nested)[0]).toMatch(/^address\.line1\./);
    const arrays = expectEnvelope(
      await send({ method: 'POST', path: '/customers', headers: { 'content-type': 'application/json' }, body: '['.repeat(10_000) + ']'.repeat(10_000) }),
      400,
    );
    expect(fieldsOf(arrays)).toHaveLength(1);
    for (const [text, label] of [
      ['Ada\\u0000', 'NUL'],
      ['Ada\\ud800', 'lone high surrogate'],
      ['\\udc00Ada', 'lone low surrogate'],
    ]) {
      const body = `{"customerType":"INDIVIDUAL","fullName":"${text}","email":"ok@example.com"}`;
      const refused = expectEnvelope(await send({ method: 'POST', path: '/customers', headers: { 'content-type': 'application/json' }, body }), 400, 'INVALID_INPUT');
      expect({ label, fields: fieldsOf(refused) }).toEqual({ label, fields: ['fullName'] });
    }
  });

  it('simulators without currency or merchant, or with merchant: [], are 400 naming each field', async () => {
    const simulate = (body: unknown) =>
      send({
        method: 'POST',
        path: `/sandbox/cards/${SOME_CARD}/simulate/credit_authorization_advice`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(fieldsOf(expectEnvelope(await simulate({ amount: 100 }), 400))).toEqual(expect.arrayContaining(['currency', 'merchant']));
    expect(fieldsOf(expectEnvelope(await simulate({ amount: 100, currency: { code: 'USD' }, merchant: [] }), 400))).toContain('merchant');
  });

  it('transfers without source or destination and personalInfo: [] or [{...}] are 400 naming the field; platformAccountId: null on PATCH clears it', async () => {
    const post = (path: string, body: unknown, method = 'POST') => send({ method, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const path of ['/transfer-out', '/transfer-in']) {
      expect(fieldsOf(expectEnvelope(await post(path, { amount: 100 }), 400))).toEqual(expect.arrayContaining(['source', 'destination']));
    }
    const business = await post('/customers', { customerType: 'BUSINESS', businessInfo: { legalName: 'Hostile Holdings' } });
    expect(business.status).toBe(201);
    for (const personalInfo of [[], [{ firstName: 'Grace', lastName: 'Hopper', birthDate: '1976-12-09', nationality: 'US' }]]) {
      const owner = expectEnvelope(await post('/beneficial-owners', { customerId: business.json.id, roles: ['UBO'], personalInfo }), 400);
      expect(fieldsOf(owner)).toEqual(['personalInfo']);
    }
    const before = await send({ method: 'GET', path: `/beneficial-owners?customerId=${business.json.id}` });
    expect(before.json.data).toEqual([]);
    const account = await post('/platform/external-accounts', usdExternalAccountBody('001'));
    expect(account.status).toBe(201);
    // A PATCH null clears the optional field (merge-patch): answered, not a 500 as it once was.
    const patched = await post(`/platform/external-accounts/${account.json.id}`, { platformAccountId: null }, 'PATCH');
    expect(patched.status).toBe(200);
    const cleared = await send({ method: 'GET', path: `/platform/external-accounts/${account.json.id}` });
    expect(cleared.json.platformAccountId).toBeUndefined();
    const emoji = await post('/cards', {
      cardholderId: customerId,
      form: 'VIRTUAL',
      fundingSources: ['InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69'],
      platformCardId: '😀',
    });
    expect(emoji.status).toBeLessThan(500);
    if (emoji.status >= 400) expectEnvelope(emoji, emoji.status);
  });

  it('a JSON null body, a non-UTF-8 charset and an unsupported media type are refused in the envelope (400, 400, 415)', async () => {
    for (const [method, path] of [
      ['PATCH', '/config'],
      ['PATCH', `/customers/${customerId}`],
      ['POST', '/customers'],
    ]) {
      const body = expectEnvelope(await send({ method, path, headers: { 'content-type': 'application/json' }, body: 'null' }), 400, 'INVALID_INPUT');
      expect(body.details.errors).toEqual([{ field: '', message: expect.stringContaining('JSON object') }]);
      expectEnvelope(await send({ method, path, headers: { 'content-type': 'application/json; charset=utf-16' }, body: Buffer.from('{}', 'utf16le') }), 400, 'INVALID_INPUT');
      expectEnvelope(await send({ method, path, headers: { 'content-type': 'application/xml' }, body: '<customer/>' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    // UTF-8 spelled either way is fine.
    const ok = await send({
      method: 'PATCH',
      path: `/customers/${customerId}`,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: '{"customerType":"INDIVIDUAL","fullName":"Still Fine"}',
    });
    expect(ok.status).toBe(200);
  });

  const SOME_ACCOUNT = 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';
  const SOME_PAYEE = 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';
  // The reference has no null in these bodies; class-validator alone would read each as "absent".
  it.each([
    ['POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Null Currencies', currencies: null }, ['currencies']],
    ['POST', '/transfer-out', { source: { accountId: SOME_ACCOUNT }, destination: { accountId: SOME_PAYEE }, amount: null }, ['amount']],
    [
      'POST',
      '/quotes',
      {
        source: { sourceType: 'ACCOUNT', accountId: SOME_ACCOUNT },
        destination: { destinationType: 'ACCOUNT', accountId: null },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
      },
      ['destination.accountId'],
    ],
    [
      'PATCH',
      '/beneficial-owners/BeneficialOwner:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
      { roles: null, ownershipPercentage: null, personalInfo: null },
      ['ownershipPercentage', 'personalInfo', 'roles'],
    ],
    ['POST', '/sandbox/send', { quoteId: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69', currencyCode: 'USD', currencyAmount: null }, ['currencyAmount']],
    ['POST', '/invitations', { inviterUma: '$ada@example.com', amountToSend: null }, ['amountToSend']],
  ])('%s %s with a JSON null where the API has none is 400 naming the field, and stores nothing', async (method, path, payload, fields) => {
    const customersBefore = (await send({ method: 'GET', path: '/customers?limit=100' })).json.data.length;
    const body = expectEnvelope(await send({ method, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }), 400, 'INVALID_INPUT');
    expect(fieldsOf(body).sort()).toEqual(fields);
    expect(body.details.errors[0].message).toContain('must not be null');
    expect((await send({ method: 'GET', path: '/customers?limit=100' })).json.data.length).toBe(customersBefore);
  });

  it('a body over the limit is 413 in the envelope', async () => {
    const huge = JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'x'.repeat(2 * 1024 * 1024) });
    expectEnvelope(await send({ method: 'POST', path: '/customers', headers: { 'content-type': 'application/json' }, body: huge }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('multipart without a boundary, or malformed, is 400; a NUL in a file name is 400 naming it; bidi controls are removed from a stored file name', async () => {
    for (const path of ['/documents', '/customers/bulk/csv']) {
      expectEnvelope(await send({ method: 'POST', path, headers: { 'content-type': 'multipart/form-data' }, body: 'no boundary' }), 400, 'INVALID_INPUT');
      const cut = multipart({ documentHolder: customerId }, { name: 'a.pdf', type: 'application/pdf', bytes: PDF });
      const truncated = cut.body.subarray(0, cut.body.length - 30);
      const malformed = await send({ method: 'POST', path, headers: { 'content-type': cut.contentType }, body: truncated });
      expect(malformed.status).toBeLessThan(500);
      if (malformed.status >= 400) expectEnvelope(malformed, malformed.status);
    }
    const fields = { documentHolder: customerId, documentType: 'PASSPORT', country: 'US' };
    const nul = multipart(fields, { name: 'pass\u0000port.pdf', type: 'application/pdf', bytes: PDF });
    const refused = expectEnvelope(await send({ method: 'POST', path: '/documents', headers: { 'content-type': nul.contentType }, body: nul.body }), 400, 'INVALID_INPUT');
    expect(fieldsOf(refused)).toEqual(['fileName']);

    // "passport\u202Efdp.exe" displays as "passportexe.pdf"; stored, it is the plain name, NFC.
    const bidi = multipart(fields, { name: 'cafe\u0301\u202Efdp.exe\u2066', type: 'application/pdf', bytes: PDF });
    const stored = await send({ method: 'POST', path: '/documents', headers: { 'content-type': bidi.contentType }, body: bidi.body });
    expect(stored.status).toBe(201);
    expect(stored.json.fileName).toBe('caf\u00e9fdp.exe');
    const read = await send({ method: 'GET', path: `/documents/${stored.json.id}` });
    expect(read.json.fileName).toBe('caf\u00e9fdp.exe');
  });

  it('a multipart answer given before its body was all read closes the connection, so the next request on it is answered', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Past the field limit: the route answers while most of the streamed body is still unread.
      const { body, contentType } = multipart(Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`field${i}`, 'x'.repeat(40)])));
      const refused = await send({ method: 'POST', path: '/documents', headers: { 'content-type': contentType }, body, agent, chunked: true });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(isErrorEnvelope(refused)).toBe(true);
      const next = await send({ method: 'GET', path: '/customers?limit=1', agent });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('a formula-leading CSV cell is imported as the text it is', async () => {
    const names = ['=cmd|calc!A1', '+SUM(1,2)', '-2+3', '@HYPERLINK("x")'];
    const csv = ['customerType,platformCustomerId,fullName', ...names.map((name, i) => `INDIVIDUAL,formula-${i},"${name.replace(/"/g, '""')}"`)].join('\n');
    const form = multipart({}, { name: 'formulas.csv', type: 'text/csv', bytes: Buffer.from(csv) });
    const job = await send({ method: 'POST', path: '/customers/bulk/csv', headers: { 'content-type': form.contentType }, body: form.body });
    expect(job.status).toBe(202);
    // The job is answered once the upload is read; its rows may still be being written.
    await eventually(async () => ((await send({ method: 'GET', path: `/customers/bulk/jobs/${job.json.id}` })).json.status === 'COMPLETED' ? true : undefined));
    const listed = await send({ method: 'GET', path: '/customers?limit=100' });
    const imported = new Map((listed.json.data as Array<{ platformCustomerId?: string; fullName?: string }>).map((c) => [c.platformCustomerId, c.fullName]));
    expect(names.map((_, i) => imported.get(`formula-${i}`))).toEqual(names);
  });
});
