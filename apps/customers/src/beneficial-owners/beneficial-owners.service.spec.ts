import { maskIdentifier } from './beneficial-owners.service';

describe(maskIdentifier.name, () => {
  it.each([
    ['123-45-6789', '•••••••6789'],
    ['AB123456C', '•••••456C'],
    ['12345678', '••••5678'],
    ['123456', '••••56'],
    ['1234', '••••'],
  ])('shows %s as %s', (identifier, masked) => {
    expect(maskIdentifier(identifier)).toBe(masked);
  });
});
