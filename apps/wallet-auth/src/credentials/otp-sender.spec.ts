import { maskDestination } from './otp-sender';

describe(maskDestination.name, () => {
  it.each([
    ['ada@example.com', 'a***@example.com'],
    ['+442071234567', '***67'],
    ['1234', '***'],
    // Whole characters: half a surrogate pair is text no log line or JSON column takes.
    ['\u{1F600}da@example.com', '\u{1F600}***@example.com'],
    ['+4420712345\u{1D7D7}\u{1D7D7}', '***\u{1D7D7}\u{1D7D7}'],
  ])('shows %s as %s', (destination, masked) => {
    expect(maskDestination(destination)).toBe(masked);
  });
});
