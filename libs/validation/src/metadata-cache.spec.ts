import { Type } from 'class-transformer';
import { getMetadataStorage, IsInt, IsString, Min, ValidateNested } from 'class-validator';
import { ServiceError } from '@paykit/errors';
import { validateContract } from './validate-contract';

class Named {
  @IsString()
  name!: string;
}

class Priced extends Named {
  @IsInt()
  @Min(1)
  amount!: number;
}

class Basket {
  @ValidateNested()
  @Type(() => Priced)
  item!: Priced;
}

function fieldsOf(run: () => unknown): string[] {
  try {
    run();
    return [];
  } catch (error) {
    return ((error as ServiceError).details as { errors: Array<{ field: string }> }).errors.map((e) => e.field).sort();
  }
}

describe('validation with cached class rules', () => {
  it('gives the same answer every time, inherited and nested rules included', () => {
    for (let i = 0; i < 3; i++) {
      expect(fieldsOf(() => validateContract(Basket, { item: { name: 'tea', amount: 2 } }))).toEqual([]);
      expect(fieldsOf(() => validateContract(Basket, { item: { name: 7, amount: 0 } }))).toEqual(['item.amount', 'item.name']);
      expect(fieldsOf(() => validateContract(Basket, { item: { name: 'tea', amount: 2, extra: true } }))).toEqual(['item.extra']);
    }
  });

  it('sees rules of a class declared after validation started', () => {
    expect(fieldsOf(() => validateContract(Priced, { name: 'x', amount: 1 }))).toEqual([]);
    class Discounted extends Priced {
      @IsInt()
      discount!: number;
    }
    expect(fieldsOf(() => validateContract(Discounted, { name: 'x', amount: 1, discount: 'none' }))).toEqual(['discount']);
    expect(fieldsOf(() => validateContract(Discounted, { name: 'x', amount: 0, discount: 1 }))).toEqual(['amount']);
  });

  it('is what class-validator consults: it still looks rules up through the storage methods the cache replaces', () => {
    const storage = getMetadataStorage();
    const lookups = jest.spyOn(storage, 'getTargetValidationMetadatas');
    const groupings = jest.spyOn(storage, 'groupByPropertyName');
    try {
      validateContract(Basket, { item: { name: 'tea', amount: 2 } });
      // class-validator's own pass, then validateContract's nested-object shape pass (the same rules, cached).
      expect(lookups.mock.calls.map(([target]) => target)).toEqual([Basket, Priced, Basket, Priced]);
      expect(groupings).toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
      groupings.mockRestore();
    }
  });
});
