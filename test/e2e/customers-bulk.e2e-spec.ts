import { ApiClient } from '../support/api-client';
import { startTestStack, TestStack } from '../support/test-stack';
import { BULK_HEADER, csvForm, postForm, WebhookReceiver } from './customers.support';

/** A row problem as the job reports it (the reference's error entry, named by its row). */
function rowError(row: number, field: string, message: unknown): unknown {
  return { correlationId: `row-${row}`, status: 400, code: 'INVALID_INPUT', message, details: { row, field } };
}

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
      BULK_HEADER,
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

  it("imports a file with exactly the reference document's columns (addressLine1, city, businessLegalName...)", async () => {
    const domain = (await t.api.get('/config')).body.umaDomain as string;
    const header =
      'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,addressLine2,city,state,postalCode,country,platformAccountId,description,email,businessLegalName,businessRegistrationNumber,businessTaxId';
    const csv = [
      header,
      `$john.doe@${domain},doc-1,INDIVIDUAL,John Doe,1990-01-15,123 Main St,Apt 4,San Francisco,CA,94105,US,acct-1,A customer,john@example.com,,,`,
      `$acme@${domain},doc-2,BUSINESS,,,400 Commerce Way,,Austin,TX,78701,US,acct-2,,,Acme LLC,REG-456,12-3456789`,
      `$bad@${domain},doc-3,INDIVIDUAL,Bad Country,1990-01-15,1 Elm St,,Austin,TX,78701,USA,,,,,,`,
    ].join('\n');
    const response = await upload(csv);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'COMPLETED', progress: { total: 3, processed: 3, successful: 2, failed: 1 } });
    // A row error names the column as the file did.
    expect(response.body.errors).toEqual([rowError(4, 'country', expect.any(String))]);
    const john = (await t.api.get('/customers?platformCustomerId=doc-1')).body.data[0];
    expect(john).toMatchObject({
      customerType: 'INDIVIDUAL',
      umaAddress: `$john.doe@${domain}`,
      fullName: 'John Doe',
      birthDate: '1990-01-15',
      email: 'john@example.com',
      address: { line1: '123 Main St', line2: 'Apt 4', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
    });
    const acme = (await t.api.get('/customers?platformCustomerId=doc-2')).body.data[0];
    expect(acme).toMatchObject({
      customerType: 'BUSINESS',
      umaAddress: `$acme@${domain}`,
      address: { line1: '400 Commerce Way', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      businessInfo: { legalName: 'Acme LLC', registrationNumber: 'REG-456', taxId: '12-3456789' },
    });
  });

  it('fails the job on a column given twice under its two names', async () => {
    const response = await upload('customerType,fullName,city,address.city\nINDIVIDUAL,Ada,London,London\n');
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'FAILED', failure: expect.stringMatching(/Duplicated column.*city/) });
  });

  it.each([
    ['an unclosed quote', `${BULK_HEADER}\nINDIVIDUAL,q-1,Fine,,,,,,,,,,\nINDIVIDUAL,q-2,"Broken,,,,,,,,,,,\n`, /Invalid CSV/],
    ['bytes that are not UTF-8', Buffer.concat([Buffer.from(`${BULK_HEADER}\nINDIVIDUAL,u-1,Caf`), Buffer.from([0xe9, 0x0a])]), /not valid UTF-8/],
    ['an unknown column', 'customerType,shoeSize\nINDIVIDUAL,42\n', /Unknown column.*shoeSize/],
    ['no customerType column', 'fullName\nAda\n', /customerType column/],
    ['an empty file', '', /empty/],
  ])('fails the job on %s, with a clear reason', async (_, content, reason) => {
    const response = await upload(content);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'FAILED', failure: expect.stringMatching(reason) });
    await receiver.waitFor(response.body.id, ['BULK_UPLOAD.FAILED']);
  });

  it('answers 404 BULK_UPLOAD_JOB_NOT_FOUND for unknown and foreign jobs, and 415 without multipart', async () => {
    const job = (await upload(`${BULK_HEADER}\n`)).body;
    expect(job).toMatchObject({ status: 'COMPLETED', progress: { processed: 0 } });
    const other = await t.newPlatform();
    for (const response of [await other.api.get(`/customers/bulk/jobs/${job.id}`), await t.api.get('/customers/bulk/jobs/BulkUploadJob:00000000-0000-7000-8000-000000000000')]) {
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('BULK_UPLOAD_JOB_NOT_FOUND');
    }
    expect((await t.api.post('/customers/bulk/csv', { file: 'x' })).status).toBe(415);
  });
});
