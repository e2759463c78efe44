import { ApiClient } from '../support/api-client';
import { startTestStack, TestStack } from '../support/test-stack';
import { BULK_HEADER, csvForm, postForm } from '../e2e/customers.support';

/**
 * The bulk customer import on PostgreSQL: a file of thousands of rows streamed and written in
 * batches. Embedded mode runs every service on one PGlite session, where each imported customer's
 * event costs the webhooks pipeline ~50 ms, so thousands of rows there take minutes; the import's
 * behaviour (rows, errors, statuses) is tested in test/e2e/customers-bulk.e2e-spec.ts.
 */
describe('Bulk customer import of a large file (PostgreSQL)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack();
  });

  afterAll(async () => {
    await t?.stop();
  });

  const upload = (content: string, api: ApiClient) => postForm(api, '/customers/bulk/csv', csvForm(content));

  it('streams a large file in batches, tracking progress and errors', async () => {
    const rows = [BULK_HEADER];
    for (let i = 1; i <= 5000; i += 1) {
      rows.push(i % 1000 === 0 ? `INDIVIDUAL,large-${i},Bad Country ${i},,ZZ,,,,,,,,` : `INDIVIDUAL,large-${i},Person ${i},1980-01-01,US,p${i}@example.com,,,,,,,`);
    }
    // A platform without a webhook endpoint: this is about the import, not 5000 deliveries.
    const platform = await t.newPlatform();
    const response = await upload(rows.join('\n') + '\n', platform.api);
    expect(response.body).toMatchObject({ status: 'COMPLETED', progress: { total: 5000, processed: 5000, successful: 4995, failed: 5 }, errorCount: 5 });
    expect(response.body.errors.map((e: { correlationId: string }) => e.correlationId)).toEqual(['row-1001', 'row-2001', 'row-3001', 'row-4001', 'row-5001']);
    expect((await platform.api.get('/customers?platformCustomerId=large-4999')).body.data).toHaveLength(1);
  });
});
