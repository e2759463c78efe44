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
