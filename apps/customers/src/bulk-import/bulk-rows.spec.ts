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
});
