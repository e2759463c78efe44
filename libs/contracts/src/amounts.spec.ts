import { amountFromWire, amountToWire, MAX_WIRE_AMOUNT } from './amounts';

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
