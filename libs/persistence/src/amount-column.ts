import { ValueTransformer } from 'typeorm';

/**
 * The one crossing between an amount column (PostgreSQL `bigint`, which both drivers hand over
 * as text so that nothing passes through a float) and a service's `bigint`. Entity columns use
 * it through `amountColumn`; raw rows, which bypass column transformers, call these directly.
 */
export function amountFromColumn(value: string): bigint {
  return BigInt(value);
}

/** An amount as a statement parameter or a JSON recordset value (a `bigint` cannot be JSON-serialized). */
export function amountToColumn(amount: bigint): string {
  return amount.toString();
}

/** `@Column({ type: 'bigint', transformer: amountColumn })`: the property is a `bigint`, never a string. */
export const amountColumn: ValueTransformer = {
  to: (amount: bigint | null | undefined): string | null | undefined => (amount === null || amount === undefined ? amount : amountToColumn(amount)),
  from: (value: string | null): bigint | null => (value === null ? null : amountFromColumn(value)),
};
