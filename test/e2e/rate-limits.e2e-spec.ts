import { API_VERSION } from '@paykit/contracts';
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
import { Credentials } from '../support/api-client';
import { rawRequest } from '../support/raw-http';
import { startTestStack, TestStack } from '../support/test-stack';

/** Another loopback address (Linux routes all of 127.0.0.0/8 to lo): a second client, as the gateway sees it. */
const ATTACKER_ADDRESS = '127.0.0.2';

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

  it('slows and then refuses failed authentications of a token id from the address they come from, even with the right secret, while the platform calling from elsewhere is answered', async () => {
    // The attacker calls from another loopback address: the gateway sees two clients.
    const fromAttacker = (credentials: Credentials) =>
      rawRequest(t.stack.url, { method: 'GET', path: `/${API_VERSION}/customers`, auth: credentials, localAddress: ATTACKER_ADDRESS });
    const run = await inOneWindow(async () => {
      const target = await t.newPlatform();
      const failures: Array<{ status: number; ms: number }> = [];
      for (let n = 1; n <= FAILURES_PER_TOKEN; n++) {
        const started = Date.now();
        const response = await fromAttacker(wrong(target.credentials, n));
        failures.push({ status: response.status, ms: Date.now() - started });
      }
      const refused = await fromAttacker(wrong(target.credentials, 99));
      const rightSecretFromAttacker = await fromAttacker(target.credentials);
      const platformAnswered = await target.api.get('/customers');
      return { target, failures, refused, rightSecretFromAttacker, platformAnswered };
    });
    expect(run.failures.map((failure) => failure.status)).toEqual(Array(FAILURES_PER_TOKEN).fill(401));
    // Past half the limit each failure is answered a step later per failure (lower bounds only).
    const half = Math.floor(FAILURES_PER_TOKEN / 2);
    run.failures.slice(half).forEach((failure, i) => expect(failure.ms).toBeGreaterThanOrEqual((i + 1) * DELAY_MS - 5));
    for (const refused of [run.refused, run.rightSecretFromAttacker]) {
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({ code: 'RATE_LIMITED', details: { reason: 'AUTHENTICATION_FAILURES' } });
    }
    expect(run.platformAnswered.status).toBe(200);
    await nextWindow();
    expect((await fromAttacker(run.target.credentials)).status).toBe(200);
  });

  it("does not count a platform's valid Basic pair on an agent-only route as a failed authentication", async () => {
    const platform = await t.newPlatform();
    const run = await inOneWindow(async () => {
      const answered: number[] = [];
      for (let n = 0; n < FAILURES_PER_TOKEN + 2; n++) answered.push((await platform.api.get('/agents/me')).status);
      return { answered, afterwards: (await platform.api.get('/customers')).status };
    });
    expect(run.answered).toEqual(Array(FAILURES_PER_TOKEN + 2).fill(401));
    expect(run.afterwards).toBe(200);
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
