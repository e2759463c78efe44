import { maskIdentifier } from './beneficial-owners.service';

describe(maskIdentifier.name, () => {
  it.each([
    ['123-45-6789', '•••••••6789'],
    ['AB123456C', '•••••456C'],
    ['12345678', '••••5678'],
    ['123456', '••••56'],
    ['1234', '••••'],
    // Characters, not UTF-16 units: a mathematical digit is two units, and half of one is not storable text.
    ['\u{1D7CF}\u{1D7D0}\u{1D7D1}\u{1D7D2}\u{1D7D3}\u{1D7D4}\u{1D7D5}\u{1D7D6}\u{1D7D7}', '•••••\u{1D7D4}\u{1D7D5}\u{1D7D6}\u{1D7D7}'],
    ['\uFF11\uFF12\uFF13\uFF14\uFF15\uFF16\uFF17\uFF18\uFF19', '•••••\uFF16\uFF17\uFF18\uFF19'],
    ['\u0661\u0662\u0663\u0664\u0665\u0666', '••••\u0665\u0666'],
    ['12345\u{1F600}', '••••5\u{1F600}'],
  ])('shows %s as %s', (identifier, masked) => {
    expect(maskIdentifier(identifier)).toBe(masked);
    // Well-formed: survives a round trip through UTF-8 unchanged.
    expect(Buffer.from(maskIdentifier(identifier)).toString()).toBe(masked);
  });
});
