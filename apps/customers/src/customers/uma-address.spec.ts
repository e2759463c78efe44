import { ServiceError } from '@paykit/errors';
import { normaliseUmaAddress } from './uma-address';

const DOMAIN = 'p-1.uma.sandbox.paykit.dev';

describe(normaliseUmaAddress.name, () => {
  it.each([
    [`$Ada@${DOMAIN}`, `$ada@${DOMAIN}`],
    [`$a.b-c_d+e9@${DOMAIN.toUpperCase()}`, `$a.b-c_d+e9@${DOMAIN}`],
    [`$${'x'.repeat(63)}@${DOMAIN}`, `$${'x'.repeat(63)}@${DOMAIN}`],
  ])('accepts %s as %s', (input, stored) => expect(normaliseUmaAddress(input, DOMAIN)).toBe(stored));

  it.each([[`ada@${DOMAIN}`], [`$${'x'.repeat(64)}@${DOMAIN}`], [`$ada#1@${DOMAIN}`], [`$@${DOMAIN}`], ['$ada@other.example'], ['$ada']])(
    'refuses %s with INVALID_UMA_ADDRESS',
    (input) => {
      expect(() => normaliseUmaAddress(input, DOMAIN)).toThrow(ServiceError);
      try {
        normaliseUmaAddress(input, DOMAIN);
      } catch (error) {
        expect((error as ServiceError).code).toBe('INVALID_UMA_ADDRESS');
      }
    },
  );
});
