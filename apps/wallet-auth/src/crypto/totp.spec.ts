import { base32Decode, base32Encode, totpCode, totpMatchedStep, totpTimeStep } from './totp';

describe('totp', () => {
  // RFC 6238 appendix B, SHA-1 secret "12345678901234567890" (8-digit vectors).
  const secret = Buffer.from('12345678901234567890', 'ascii');

  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('RFC 6238 vector at %i s is %s', (seconds, expected) => {
    expect(totpCode(secret, new Date(seconds * 1000), 8)).toBe(expected);
  });

  it('accepts the neighbouring steps only, naming the step a code belongs to', () => {
    const now = new Date(1_700_000_000_000);
    const step = totpTimeStep(now);
    expect(totpMatchedStep(secret, totpCode(secret, now), now)).toBe(step);
    expect(totpMatchedStep(secret, totpCode(secret, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(totpMatchedStep(secret, totpCode(secret, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
    expect(totpMatchedStep(secret, totpCode(secret, new Date(now.getTime() - 90_000)), now)).toBeUndefined();
  });

  it('round-trips base32 (RFC 4648 vectors)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
  });
});
