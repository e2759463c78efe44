import {
  DELAY_MS,
  expectRateLimited,
  FAILURES_PER_ADDRESS,
  FAILURES_PER_TOKEN,
  inOneWindow,
  LOW_LIMITS,
  nextWindow,
  REQUESTS,
  WINDOW_SECONDS,
  wrong,
} from '../support/rate-limit-windows';
import { startTestStack, TestStack } from '../support/test-stack';

describe('Rate limits and brute-force protection (per token, per address)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack({ env: LOW_LIMITS });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('answers 429 with Retry-After in the envelope past the per-token limit, counts each token apart, and admits again in the next window', async () => {
    const { api } = await t.newPlatform();
    const { api: other } = await t.newPlatform();
    const statuses = await inOneWindow(async () => {
      const answered: number[] = [];
      for (let i = 0; i < REQUESTS; i++) answered.push((await api.get('/customers')).status);
      const refused = await api.get('/customers');
      // Another token of another platform has a window of its own.
      const separate = await other.get('/customers');
      return { answered, refused, separate: separate.status };
    });
    expect(statuses.answered).toEqual(Array(REQUESTS).fill(200));
    expectRateLimited(statuses.refused, 'REQUEST_RATE');
    expect(statuses.refused.body.details).toMatchObject({ limit: REQUESTS, windowSeconds: WINDOW_SECONDS });
    expect(statuses.separate).toBe(200);
    await nextWindow();
    expect((await api.get('/customers')).status).toBe(200);
  });

  it('slows and then refuses failed authentications per token id, even with the right secret, until the window ends', async () => {
    const run = await inOneWindow(async () => {
      const target = await t.newPlatform();
      const bystander = await t.newPlatform();
      const failures: Array<{ status: number; ms: number }> = [];
      for (let n = 1; n <= FAILURES_PER_TOKEN; n++) {
        const started = Date.now();
        const response = await target.api.get('/customers', { auth: wrong(target.credentials, n) });
        failures.push({ status: response.status, ms: Date.now() - started });
      }
      const refused = await target.api.get('/customers', { auth: wrong(target.credentials, 99) });
      const rightSecretRefused = await target.api.get('/customers');
      const bystanderAnswered = await bystander.api.get('/customers');
      return { target, failures, refused, rightSecretRefused, bystanderAnswered };
    });
    expect(run.failures.map((failure) => failure.status)).toEqual(Array(FAILURES_PER_TOKEN).fill(401));
    // Past half the limit each failure is answered a step later per failure (lower bounds only).
    const half = Math.floor(FAILURES_PER_TOKEN / 2);
    run.failures.slice(half).forEach((failure, i) => expect(failure.ms).toBeGreaterThanOrEqual((i + 1) * DELAY_MS - 5));
    expectRateLimited(run.refused, 'AUTHENTICATION_FAILURES');
    expectRateLimited(run.rightSecretRefused, 'AUTHENTICATION_FAILURES');
    expect(run.bystanderAnswered.status).toBe(200);
    await nextWindow();
    expect((await run.target.api.get('/customers')).status).toBe(200);
  });

  it('refuses every authentication from a client address after too many failures with any token ids', async () => {
    const { api } = await t.newPlatform();
    const run = await inOneWindow(async (attempt) => {
      const failures: number[] = [];
      for (let n = 1; n <= FAILURES_PER_ADDRESS; n++) {
        failures.push((await api.get('/customers', { auth: { tokenId: `unknown-${attempt}-${n}-${Date.now()}`, secret: 'x'.repeat(40) } })).status);
      }
      const refused = await api.get('/customers', { auth: { tokenId: `unknown-${attempt}-last`, secret: 'x'.repeat(40) } });
      const validRefused = await api.get('/customers');
      return { failures, refused, validRefused };
    });
    expect(run.failures).toEqual(Array(FAILURES_PER_ADDRESS).fill(401));
    expectRateLimited(run.refused, 'AUTHENTICATION_FAILURES');
    expectRateLimited(run.validRefused, 'AUTHENTICATION_FAILURES');
    await nextWindow();
    expect((await api.get('/customers')).status).toBe(200);
  });

  it('documents the 429 and its Retry-After header on every operation behind credentials', async () => {
    const document = (await fetch(`${t.stack.url}/openapi.json`).then((response) => response.json())) as {
      paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    const secured = Object.values(document.paths).flatMap((item) => Object.values(item).filter((operation) => operation.security === undefined || operation.security.length > 0));
    expect(secured.length).toBeGreaterThan(50);
    for (const operation of secured) expect(operation.responses['429']?.headers?.['Retry-After']).toBeDefined();
  });
});
