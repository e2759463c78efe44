import { RequestLogEntry } from '@paykit/contracts';
import { eventually, startTestStack, TestStack } from '../support/test-stack';

/** The sandbox request log: what a platform's own requests looked like, newest first, and nothing it must not keep. */
describe('sandbox request log (GET /sandbox/request-log)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack();
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** The log's entries once `requestIds` are all in it (rows are written off the request path, in batches). */
  async function entriesWith(requestIds: string[], api = t.api): Promise<RequestLogEntry[]> {
    return eventually(async () => {
      const page = await api.get<{ data: RequestLogEntry[] }>('/sandbox/request-log?limit=100');
      expect(page.status).toBe(200);
      const seen = new Set(page.body.data.map((entry) => entry.requestId));
      return requestIds.every((id) => seen.has(id)) ? page.body.data : undefined;
    });
  }

  it('records method, route, path, status, error code, duration and request id, newest first; never bodies or query strings', async () => {
    const created = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' });
    expect(created.status).toBe(201);
    const invalid = await t.api.post('/customers', { customerType: 'NOBODY' });
    expect(invalid.status).toBe(400);
    const missing = await t.api.get('/customers/Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69');
    expect(missing.status).toBe(404);
    const filtered = await t.api.get('/customers?platformCustomerId=acct-4111111111111111&limit=5');
    expect(filtered.status).toBe(200);
    const ids = [created, invalid, missing, filtered].map((response) => response.headers.get('x-request-id')!);

    const entries = await entriesWith(ids);
    const mine = entries.filter((entry) => ids.includes(entry.requestId));
    // Newest first: the reverse of the order the requests were made in.
    expect(mine.map((entry) => entry.requestId)).toEqual([...ids].reverse());
    const [listed, notFound, refused, posted] = mine;
    expect(posted).toEqual({
      id: expect.stringMatching(/^RequestLog:/),
      method: 'POST',
      route: '/2025-10-13/customers',
      path: '/2025-10-13/customers',
      status: 201,
      durationMs: expect.any(Number),
      requestId: ids[0],
      createdAt: expect.any(String),
    });
    expect(refused).toMatchObject({ method: 'POST', status: 400, errorCode: 'INVALID_INPUT' });
    expect(notFound).toMatchObject({
      method: 'GET',
      route: '/2025-10-13/customers/:customerId',
      path: '/2025-10-13/customers/Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
      status: 404,
      errorCode: expect.any(String),
    });
    expect(listed).toMatchObject({ path: '/2025-10-13/customers', status: 200 });
    expect(listed.errorCode).toBeUndefined();
    // Nothing of what was sent is kept: no body field, no query value.
    expect(JSON.stringify(entries)).not.toMatch(/Ada|4111111111111111|ada@example|limit=5/);
    // Reading the log is not an entry of it.
    expect(entries.some((entry) => entry.path.endsWith('/sandbox/request-log'))).toBe(false);
  });

  it('pages with limit and cursor, without overlap', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await t.api.get('/customers?limit=1')).headers.get('x-request-id')!);
    await entriesWith(ids);
    const first = await t.api.get<{ data: RequestLogEntry[]; hasMore: boolean; nextCursor?: string }>('/sandbox/request-log?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((entry) => entry.requestId)).toEqual([ids[2], ids[1]]);
    expect(first.body.hasMore).toBe(true);
    const second = await t.api.get<{ data: RequestLogEntry[] }>(`/sandbox/request-log?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect(second.body.data[0].requestId).toBe(ids[0]);
  });

  it("is the platform's own: another platform sees none of it", async () => {
    const other = await t.newPlatform();
    const own = (await other.api.get('/customers')).headers.get('x-request-id')!;
    const entries = await entriesWith([own], other.api);
    const mine = await t.api.get<{ data: RequestLogEntry[] }>('/sandbox/request-log?limit=100');
    const mineIds = new Set(mine.body.data.map((entry) => entry.requestId));
    expect(entries.some((entry) => mineIds.has(entry.requestId))).toBe(false);
    expect(mineIds.has(own)).toBe(false);
  });

  it('lists every invalid query field, and refuses production tokens and missing credentials', async () => {
    const invalid = await t.api.get('/sandbox/request-log?limit=0&cursor=bm90LWFuLWlk');
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('INVALID_INPUT');
    expect(invalid.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['limit']);
    const badCursor = await t.api.get('/sandbox/request-log?cursor=bm90LWFuLWlk');
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['cursor']);
    const production = await t.newPlatform('production');
    expect((await production.api.get('/sandbox/request-log')).status).toBe(403);
    expect((await t.api.get('/sandbox/request-log', { auth: null })).status).toBe(401);
  });
});
