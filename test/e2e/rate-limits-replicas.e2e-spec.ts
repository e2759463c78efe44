/**
 * @distributed gateway: limits held across two gateway replicas over one database
 */
import { ApiClient } from '../support/api-client';
import { expectRateLimited, FAILURES_PER_TOKEN, inOneWindow, LOW_LIMITS, REQUESTS, wrong } from '../support/rate-limit-windows';
import { SecondGateway, startSecondGateway } from '../support/second-gateway';
import { stackMode, startTestStack, TestStack } from '../support/test-stack';

/**
 * The limits of rate-limits.e2e-spec.ts held by two gateway replicas over one database: a second
 * gateway needs PostgreSQL and NATS beside the first, so this file runs in distributed mode only.
 */
const describeDistributed = stackMode() === 'distributed' ? describe : describe.skip;

describeDistributed('Rate limits across gateway replicas', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack({ env: LOW_LIMITS });
  });

  afterAll(async () => {
    await t?.stop();
  });

  describe('two gateway replicas over one database (distributed mode)', () => {
    let replica: SecondGateway | undefined;
    let secondBase = '';

    beforeAll(async () => {
      replica = await startSecondGateway(t);
      secondBase = replica.baseUrl;
    });

    afterAll(async () => {
      await replica?.stop();
    });

    it('holds the request limit across both replicas', async () => {
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
      const run = await inOneWindow(async () => {
        const { api, credentials } = await t.newPlatform();
        const replicas = [api, new ApiClient(secondBase, credentials)];
        const failures: number[] = [];
        for (let n = 1; n <= FAILURES_PER_TOKEN; n++) failures.push((await replicas[n % 2].get('/customers', { auth: wrong(credentials, n) })).status);
        // The next failure is refused on either replica, and then the right secret too, from this address.
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
