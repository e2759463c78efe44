import { CONTACT_VERIFICATION_RULES } from './contact-verification.sandbox';

describe('contact verification rules', () => {
  it.each([
    ['email', 'ada+verify@example.com', true],
    ['email', 'ADA+VERIFY@EXAMPLE.COM', true],
    ['email', 'ada@example.com', false],
    ['email', 'ada+verifyme@example.com', false],
    ['phone', '+14155550000', true],
    ['phone', '+14155550001', false],
  ] as const)('%s %s requires verification: %s', (channel, value, required) => expect(CONTACT_VERIFICATION_RULES[channel](value)).toBe(required));
});
