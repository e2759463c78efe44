import { amountFromDigits, amountFromWire, amountToWire, basisPointsFromWire, decimalScale, MAX_WIRE_AMOUNT } from './amounts';

describe(amountToWire.name, () => {
  it.each([0n, 1n, -250n, MAX_WIRE_AMOUNT, -MAX_WIRE_AMOUNT])('carries %s exactly', (amount) => {
    expect(amountFromWire(amountToWire(amount))).toBe(amount);
  });

  it('refuses an amount a JSON number would round', () => {
    expect(() => amountToWire(MAX_WIRE_AMOUNT + 1n)).toThrow('exceeds the exactly representable range');
    expect(() => amountToWire(-MAX_WIRE_AMOUNT - 1n)).toThrow('exceeds the exactly representable range');
  });
});

describe(amountFromWire.name, () => {
  it('reads a wire integer as a bigint', () => {
    expect(amountFromWire(12_345)).toBe(12_345n);
  });
});

describe(decimalScale.name, () => {
  it.each([
    [0, 1n],
    [2, 100n],
    [18, 1_000_000_000_000_000_000n],
  ])('is 10^%s', (decimals, scale) => {
    expect(decimalScale(decimals)).toBe(scale);
  });

  it('refuses a negative or fractional number of places', () => {
    expect(() => decimalScale(-1)).toThrow('non-negative integer');
    expect(() => decimalScale(1.5)).toThrow('non-negative integer');
  });
});

describe(basisPointsFromWire.name, () => {
  it('reads basis points as a bigint', () => {
    expect(basisPointsFromWire(25)).toBe(25n);
  });
});

describe(amountFromDigits.name, () => {
  it('reads a string of digits beyond 2^53 exactly', () => {
    expect(amountFromDigits('1000000000000000000000')).toBe(10n ** 21n);
  });

  it.each(['', '-1', '1.5', ' 1', '0x10'])('refuses %j', (text) => {
    expect(() => amountFromDigits(text)).toThrow('not a string of digits');
  });
});
