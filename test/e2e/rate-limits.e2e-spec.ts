/**
 * @distributed gateway: limits held across two gateway replicas over one database
 */
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SecondGateway, startSecondGateway } from '../support/second-gateway';
import { ApiClient, ApiResponse, Credentials } from '../support/api-client';
import { startTestStack, TestStack } from '../support/test-stack';

/** Low limits, so a test reaches them in a few requests; one window length for both kinds. */
const WINDOW_SECONDS = 3;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const REQUESTS = 5;
const FAILURES_PER_TOKEN = 4;
const FAILURES_PER_ADDRESS = 6;
const DELAY_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const windowOf = (at: number) => Math.floor(at / WINDOW_MS);

/** Waits for the next window to begin (the server cuts windows from the same clock, epoch-aligned). */
async function nextWindow(): Promise<void> {
  await sleep(WINDOW_MS - (Date.now() % WINDOW_MS) + 20);
}

/**
 * Runs `steps` from the start of a fresh window and answers their results, provided they all ran
 * inside that one window; a run that crossed into the next window (a very slow machine) is
 * repeated from a fresh window with fresh keys (`attempt` tells the steps which try this is).
 */
async function inOneWindow<T>(steps: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await nextWindow();
    const started = Date.now();
    const result = await steps(attempt);
    if (windowOf(Date.now()) === windowOf(started)) return result;
  }
  throw new Error('the machine is too slow to run the steps inside one window');
}

function expectRateLimited(response: ApiResponse, reason: string): void {
  expect(response.status).toBe(429);
  expect(response.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: expect.any(String), details: { reason } });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(response.body.details.retryAfterSeconds).toBe(retryAfter);
}

const wrong = (credentials: Credentials, n: number): Credentials => ({ tokenId: credentials.tokenId, secret: `wrong-secret-${n}-0123456789abcdef` });

describe('Rate limits and brute-force protection (per token, per address, across replicas)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack({
      env: {
        RATE_LIMIT_REQUESTS: String(REQUESTS),
        RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
        AUTH_FAILURE_LIMIT_PER_TOKEN: String(FAILURES_PER_TOKEN),
        AUTH_FAILURE_LIMIT_PER_ADDRESS: String(FAILURES_PER_ADDRESS),
        AUTH_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
        AUTH_FAILURE_DELAY_MS: String(DELAY_MS),
      },
    });
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

  describe('two gateway replicas over one database (distributed mode)', () => {
    let replica: SecondGateway | undefined;
    let second: NestFastifyApplication | undefined;
    let secondBase = '';

    beforeAll(async () => {
      if (t.mode !== 'distributed') return;
      replica = await startSecondGateway(t);
      second = replica.app;
      secondBase = replica.baseUrl;
    });

    afterAll(async () => {
      await replica?.stop();
    });

    it('holds the request limit across both replicas', async () => {
      if (!second) return;
      const { api, credentials } = await t.newPlatform();
      const replicas = [api, new ApiClient(secondBase, credentials)];
      const run = await inOneWindow(async () => {
        const answered: number[] = [];
        for (let i = 0; i < REQUESTS; i++) answered.push((await replicas[i % 2].get('/customers')).status);
        return { answered, refused: [await replicas[0].get('/customers'), await replicas[1].get('/customers')] };
      });
      expect(run.answered).toEqual(Array(REQUESTS).fill(200));
      for (const refused of run.refused) expectRateLimited(refused, 'REQUEST_RATE');
    });

    it('holds the failed-authentication limit across both replicas', async () => {
      if (!second) return;
      const run = await inOneWindow(async () => {
        const { api, credentials } = await t.newPlatform();
        const replicas = [api, new ApiClient(secondBase, credentials)];
        const failures: number[] = [];
        for (let n = 1; n <= FAILURES_PER_TOKEN; n++) failures.push((await replicas[n % 2].get('/customers', { auth: wrong(credentials, n) })).status);
        // The next failure is refused on either replica, and then the right secret too.
        const refused = await replicas[1].get('/customers', { auth: wrong(credentials, 98) });
        const refusedOnOther = await replicas[0].get('/customers', { auth: wrong(credentials, 99) });
        const rightSecret = [await replicas[0].get('/customers'), await replicas[1].get('/customers')];
        return { failures, refused, refusedOnOther, rightSecret };
      });
      expect(run.failures).toEqual(Array(FAILURES_PER_TOKEN).fill(401));
      expectRateLimited(run.refused, 'AUTHENTICATION_FAILURES');
      expectRateLimited(run.refusedOnOther, 'AUTHENTICATION_FAILURES');
      for (const response of run.rightSecret) expectRateLimited(response, 'AUTHENTICATION_FAILURES');
    });
  });
});
