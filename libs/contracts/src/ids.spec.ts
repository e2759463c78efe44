import { isTypedId, newIdAvoidingSuffixes } from './ids';

describe(newIdAvoidingSuffixes.name, () => {
  it('never ends a generated id in a reserved suffix, even when most suffixes are reserved', () => {
    const hex = '0123456789abcdef';
    const reserved = new Set<string>();
    for (const a of hex.slice(0, 14)) for (const b of hex) for (const c of hex) reserved.add(a + b + c);
    for (let i = 0; i < 500; i++) {
      const id = newIdAvoidingSuffixes('InternalAccount', reserved);
      expect(isTypedId(id, 'InternalAccount')).toBe(true);
      expect(reserved.has(id.slice(-3))).toBe(false);
    }
  });
});
