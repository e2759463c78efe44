import { AppendBulkImportRowsRequest } from '@paykit/contracts';
import { validateContract } from '@paykit/validation';
import { headerProblem, parseRow, rowToBody } from './bulk-rows';

describe('bulk CSV rows', () => {
  describe(headerProblem.name, () => {
    it.each([
      [['customerType', 'fullName', 'address.country'], undefined],
      [['customerType', 'shoeSize'], /Unknown column/],
      [['customerType', 'fullName', 'fullName'], /Duplicated/],
      [['fullName'], /customerType/],
      // The reference document's own column names (its description of POST /customers/bulk/csv).
      [['umaAddress', 'platformCustomerId', 'customerType', 'fullName', 'birthDate', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country'], undefined],
      [['customerType', 'businessLegalName', 'businessRegistrationNumber', 'businessTaxId', 'platformAccountId', 'description', 'email'], undefined],
      [['customerType', 'city', 'address.city'], /Duplicated column\(s\) address\.city \(city, address\.city\)/],
    ])('%j', (columns, problem) => {
      const result = headerProblem(columns);
      if (problem) expect(result).toMatch(problem);
      else expect(result).toBeUndefined();
    });
  });

  it('nests dot paths, drops empty cells and splits sources of wealth on ;', () => {
    expect(rowToBody(['customerType', 'address.city', 'address.country', 'email', 'sourceOfWealthCategories'], ['INDIVIDUAL', 'London', 'GB', ' ', 'SALARY; GIFT'])).toEqual({
      customerType: 'INDIVIDUAL',
      address: { city: 'London', country: 'GB' },
      sourceOfWealthCategories: ['SALARY', 'GIFT'],
    });
  });

  it("maps the reference document's column names to the create fields, and drops the columns without one", () => {
    const columns = [
      'umaAddress',
      'platformCustomerId',
      'customerType',
      'fullName',
      'birthDate',
      'addressLine1',
      'addressLine2',
      'city',
      'state',
      'postalCode',
      'country',
      'platformAccountId',
      'description',
      'businessLegalName',
      'businessRegistrationNumber',
      'businessTaxId',
    ];
    const cells = [
      '$acme@uma.example',
      'biz456',
      'BUSINESS',
      '',
      '',
      '400 Commerce Way',
      'Suite 9',
      'Austin',
      'TX',
      '78701',
      'US',
      'acct-1',
      'Our supplier',
      'Acme LLC',
      'REG-1',
      '12-3456789',
    ];
    expect(rowToBody(columns, cells)).toEqual({
      umaAddress: '$acme@uma.example',
      platformCustomerId: 'biz456',
      customerType: 'BUSINESS',
      address: { line1: '400 Commerce Way', line2: 'Suite 9', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      businessInfo: { legalName: 'Acme LLC', registrationNumber: 'REG-1', taxId: '12-3456789' },
    });
  });

  it("names a row error by the column the file used (the document's name or the dot path)", () => {
    expect(parseRow(4, ['customerType', 'fullName', 'addressLine1', 'city', 'postalCode', 'country'], ['INDIVIDUAL', 'Ada', '1 Main St', 'London', 'N1 9GU', 'GBR'])).toEqual([
      { row: 4, field: 'country', message: expect.any(String) },
    ]);
    expect(parseRow(5, ['customerType', 'fullName', 'address.line1', 'address.postalCode', 'address.country'], ['INDIVIDUAL', 'Ada', '1 Main St', 'N1 9GU', 'GBR'])).toEqual([
      { row: 5, field: 'address.country', message: expect.any(String) },
    ]);
  });

  it('validates a row like POST /customers, with the row number on each error', () => {
    expect(parseRow(7, ['customerType', 'birthDate', 'nationality'], ['INDIVIDUAL', '2001-02-29', 'gb'])).toEqual([
      { row: 7, field: 'birthDate', message: expect.any(String) },
      { row: 7, field: 'nationality', message: expect.any(String) },
    ]);
    expect(parseRow(8, ['customerType'], ['INDIVIDUAL', 'extra'])).toEqual([{ row: 8, field: '', message: 'the row has 2 cells, the header 1' }]);
    expect(parseRow(9, ['customerType', 'fullName'], ['INDIVIDUAL', 'Ada'])).toMatchObject({ customerType: 'INDIVIDUAL', fullName: 'Ada' });
  });

  it('takes a batch as consecutive records of string cells, numbered from its first row', () => {
    const batch = { jobId: 'BulkUploadJob:1', columns: ['customerType', 'fullName'], firstRow: 2, rows: [['INDIVIDUAL', 'Ada'], ['BUSINESS']] };
    expect(validateContract(AppendBulkImportRowsRequest, batch)).toMatchObject(batch);
    for (const bad of [{ firstRow: 1 }, { rows: [['INDIVIDUAL', 7]] }, { rows: ['INDIVIDUAL'] }, { rows: { 0: ['INDIVIDUAL'] } }]) {
      expect(() => validateContract(AppendBulkImportRowsRequest, { ...batch, ...bad })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    }
  });
});
