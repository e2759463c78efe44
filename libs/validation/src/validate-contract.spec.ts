import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { FieldError, ServiceError } from '@paykit/errors';
import { ContractValidation, validateContract } from './validate-contract';

class Inner {
  @IsOptional() @IsString() name?: string;
}

class Outer {
  @IsOptional() @IsString() label?: string;
  @IsOptional() @ValidateNested() @Type(() => Inner) inner?: Inner;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Outer) children?: Outer[];
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @IsString() note?: string | null;
}

function fieldsRefused(plain: unknown, options?: ContractValidation<Outer>): string[] {
  try {
    validateContract(Outer, plain, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return (((error as ServiceError).details?.errors ?? []) as FieldError[]).map((f) => f.field);
  }
  return [];
}

describe('validateContract: what no contract accepts', () => {
  it.each([
    ['a NUL in a string', { label: 'a\u0000b' }, ['label']],
    ['a lone high surrogate', { label: 'x\ud800' }, ['label']],
    ['a lone low surrogate', { inner: { name: '\udc00y' } }, ['inner.name']],
    ['a reserved key', { inner: { constructor: 'x' } }, ['inner.constructor']],
  ])('refuses %s, naming the field', (_case, plain, fields) => {
    expect(fieldsRefused(plain)).toEqual(fields);
  });

  it('accepts paired surrogates (an emoji) and ordinary text', () => {
    expect(validateContract(Outer, { label: 'card \ud83d\udcb3', inner: { name: 'Zoë' } }).label).toBe('card \ud83d\udcb3');
  });

  it('refuses nesting deeper than any contract without walking all of it', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 10_000; i++) {
      const next: Record<string, unknown> = {};
      deep.inner = next;
      deep = next;
    }
    expect(fieldsRefused(root)).toHaveLength(1);
  });

  it.each([
    ['an empty array', { inner: [] }, ['inner']],
    ['an array of valid objects', { inner: [{ name: 'x' }] }, ['inner']],
    ['an array inside an array of objects', { children: [{ inner: [] }] }, ['children.0.inner']],
  ])('refuses %s in place of a nested object, naming it', (_case, plain, fields) => {
    expect(fieldsRefused(plain)).toEqual(fields);
  });

  it('accepts an array where the contract declares one (each)', () => {
    expect(fieldsRefused({ children: [{ inner: { name: 'x' } }, {}] })).toEqual([]);
  });
});

describe('validateContract: a JSON null where the API document has none', () => {
  it.each([
    ['an optional field', { label: null }, ['label']],
    ['an optional nested object', { inner: null }, ['inner']],
    ['a field of a nested object', { inner: { name: null } }, ['inner.name']],
    ['a field of an object in an array', { children: [{}, { label: null }] }, ['children.1.label']],
    ['several at once', { label: null, inner: { name: null } }, ['label', 'inner.name']],
  ])('refuses %s from a client, naming it', (_case, plain, fields) => {
    expect(fieldsRefused(plain, { nulls: 'refuse' })).toEqual(fields);
  });

  it('says so in the constraint, for clients that read it', () => {
    expect(() => validateContract(Outer, { label: null }, { nulls: 'refuse' })).toThrow(
      expect.objectContaining({ details: { errors: [{ field: 'label', message: 'label must not be null; omit it instead', constraint: { nullable: false } }] } }),
    );
  });

  it('accepts null where the contract declares the field nullable', () => {
    expect(validateContract(Outer, { note: null }, { nulls: 'refuse' }).note).toBeNull();
  });

  it('leaves messages between services to class-validator, where an optional field may be null', () => {
    expect(fieldsRefused({ label: null, inner: { name: null } })).toEqual([]);
  });
});
