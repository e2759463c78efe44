import { amountColumn, amountFromColumn, amountToColumn } from './amount-column';

describe('amountColumn', () => {
  const largest = 2n ** 63n - 1n;

  it.each([0n, -1n, -250n, 1n, 12_345n, largest, -largest - 1n])('round-trips %p exactly', (amount) => {
    const stored: unknown = amountColumn.to(amount);
    expect(stored).toBe(amount.toString());
    expect(amountColumn.from(stored)).toBe(amount);
  });

  it('reads the text a driver gives for bigint 2^63-1 without rounding', () => {
    expect(amountColumn.from('9223372036854775807')).toBe(largest);
    expect(amountFromColumn('-9223372036854775808')).toBe(-largest - 1n);
    expect(amountToColumn(largest)).toBe('9223372036854775807');
  });

  it('keeps null (a nullable column) and undefined (a property left out of an update) as they are', () => {
    expect(amountColumn.to(null)).toBeNull();
    expect(amountColumn.to(undefined)).toBeUndefined();
    expect(amountColumn.from(null)).toBeNull();
  });
});
