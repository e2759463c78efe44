/**
 * @distributed customers: a 5,000-row import streamed and batched on PostgreSQL (embedded skips it)
 */
import { ApiClient } from '../support/api-client';
import { stackMode, startTestStack, TestStack } from '../support/test-stack';
import { postForm, WebhookReceiver } from './customers.support';

function stackModeIsDistributed(): boolean {
  return stackMode() === 'distributed';
}

function csvForm(content: string | Buffer, name = 'customers.csv'): FormData {
  const form = new FormData();
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type: 'text/csv' }), name);
  return form;
}

/** A row problem as the job reports it (the reference's error entry, named by its row). */
function rowError(row: number, field: string, message: unknown): unknown {
  return { correlationId: `row-${row}`, status: 400, code: 'INVALID_INPUT', message, details: { row, field } };
}

const HEADER =
  'customerType,platformCustomerId,fullName,birthDate,nationality,email,address.line1,address.city,address.postalCode,address.country,businessInfo.legalName,businessInfo.registrationNumber,sourceOfWealthCategories';

describe('Bulk customer import (POST /customers/bulk/csv)', () => {
  let t: TestStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestStack();
    receiver = await WebhookReceiver.attach(t.api);
  });

  afterAll(async () => {
    await t?.stop();
    await receiver?.close();
  });

  const upload = (content: string | Buffer, api: ApiClient = t.api) => postForm(api, '/customers/bulk/csv', csvForm(content));

  it('imports the good rows of a mixed file and reports each bad row with its row number, field and message', async () => {
    const csv = [
      HEADER,
      'INDIVIDUAL,bulk-1,Ada Lovelace,1990-04-12,GB,ada@example.com,1 Main St,London,N1 9GU,GB,,,SALARY;INVESTMENTS',
      'INDIVIDUAL,bulk-2,Bad Date,1990-02-30,GB,bad@example.com,,,,,,,',
      'BUSINESS,bulk-3,,,,ops@acme.example,1 Market St,San Francisco,94105,US,Acme LLC,REG-1,',
      'PERSON,bulk-4,"Quoted, Name",,gb,not-an-email,,,,,,,',
      'INDIVIDUAL,bulk-5,Too Few Cells',
      'INDIVIDUAL,bulk-6,"Grace ""Amazing"" Hopper",1906-12-09,US,,,,,,,,',
    ].join('\n');
    const response = await upload(csv);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^BulkUploadJob:/),
      status: 'COMPLETED',
      fileName: 'customers.csv',
      progress: { total: 6, processed: 6, successful: 3, failed: 3 },
      errorCount: 5,
    });
    expect(response.body.errors).toEqual([
      rowError(3, 'birthDate', expect.stringMatching(/existing date/)),
      rowError(5, 'customerType', expect.any(String)),
      rowError(5, 'nationality', expect.any(String)),
      rowError(5, 'email', expect.any(String)),
      rowError(6, '', expect.stringMatching(/3 cells/)),
    ]);
    const imported = (await t.api.get('/customers?platformCustomerId=bulk-6')).body.data[0];
    expect(imported).toMatchObject({ fullName: 'Grace "Amazing" Hopper', birthDate: '1906-12-09', kycStatus: 'PENDING' });
    const ada = (await t.api.get('/customers?platformCustomerId=bulk-1')).body.data[0];
    expect(ada).toMatchObject({ address: { line1: '1 Main St', city: 'London', postalCode: 'N1 9GU', country: 'GB' }, sourceOfWealthCategories: ['SALARY', 'INVESTMENTS'] });
    expect((await t.api.get('/customers?platformCustomerId=bulk-3')).body.data[0]).toMatchObject({ customerType: 'BUSINESS', kybStatus: 'PENDING' });

    // progress.ready is counted live (customers become ready after the job completes: customers-provisioning.e2e-spec.ts).
    const sameJob = { ...response.body, progress: { ...response.body.progress, ready: expect.any(Number) } };
    expect((await t.api.get(`/customers/bulk/jobs/${response.body.id}`)).body).toEqual(sameJob);
    const [announced] = await receiver.waitFor(response.body.id, ['BULK_UPLOAD.COMPLETED']);
    expect(announced.verified).toBe(true);
    expect(announced.payload.data).toEqual(sameJob);
    // Each imported customer is announced like one created by POST /customers.
    await receiver.waitFor(ada.id, ['CUSTOMER.KYC_PENDING']);
  });

  it.each([
    ['an unclosed quote', `${HEADER}\nINDIVIDUAL,q-1,Fine,,,,,,,,,,\nINDIVIDUAL,q-2,"Broken,,,,,,,,,,,\n`, /Invalid CSV/],
    ['bytes that are not UTF-8', Buffer.concat([Buffer.from(`${HEADER}\nINDIVIDUAL,u-1,Caf`), Buffer.from([0xe9, 0x0a])]), /not valid UTF-8/],
    ['an unknown column', 'customerType,shoeSize\nINDIVIDUAL,42\n', /Unknown column.*shoeSize/],
    ['no customerType column', 'fullName\nAda\n', /customerType column/],
    ['an empty file', '', /empty/],
  ])('fails the job on %s, with a clear reason', async (_, content, reason) => {
    const response = await upload(content);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'FAILED', failure: expect.stringMatching(reason) });
    await receiver.waitFor(response.body.id, ['BULK_UPLOAD.FAILED']);
  });

  // Embedded mode runs every service on one PGlite session, where each imported customer's event
  // costs the webhooks pipeline ~50 ms; thousands of rows there take minutes, so the large file is
  // exercised on PostgreSQL (the gateway's streaming and batching are the same code in both modes).
  const itWithPostgres = stackModeIsDistributed() ? it : it.skip;

  itWithPostgres('streams a large file in batches, tracking progress and errors', async () => {
    const rows = [HEADER];
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

  it('answers 404 BULK_UPLOAD_JOB_NOT_FOUND for unknown and foreign jobs, and 415 without multipart', async () => {
    const job = (await upload(`${HEADER}\n`)).body;
    expect(job).toMatchObject({ status: 'COMPLETED', progress: { processed: 0 } });
    const other = await t.newPlatform();
    for (const response of [await other.api.get(`/customers/bulk/jobs/${job.id}`), await t.api.get('/customers/bulk/jobs/BulkUploadJob:00000000-0000-7000-8000-000000000000')]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('BULK_UPLOAD_JOB_NOT_FOUND');
    }
    expect((await t.api.post('/customers/bulk/csv', { file: 'x' })).status).toBe(415);
  });
});
