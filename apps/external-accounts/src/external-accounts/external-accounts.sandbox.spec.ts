import { AccountInfo } from '@paykit/contracts';
import { sandboxLivenessOutcome, sandboxNameVerification } from './external-accounts.sandbox';

const usd = (accountNumber: string): AccountInfo => ({ accountType: 'USD_ACCOUNT', accountNumber });

describe(sandboxNameVerification.name, () => {
  it.each([
    ['102', 'NOT_MATCHED'],
    ['103', 'PARTIAL_MATCH'],
    ['104', 'PENDING'],
    ['105', 'INVALID_ACCOUNT'],
    ['106', 'UNSUPPORTED'],
    ['107', 'CHECKED_BY_RECEIVING_FI'],
    ['101', 'MATCHED'],
    ['108', 'MATCHED'],
    ['002', 'MATCHED'],
  ])('suffix %s gives %s', (suffix, expected) => {
    expect(sandboxNameVerification(usd(`99999${suffix}`))).toBe(expected);
  });

  it('reads the username part of user@domain identifiers', () => {
    expect(sandboxNameVerification({ accountType: 'INR_ACCOUNT', vpa: 'ana102@ok104' })).toBe('NOT_MATCHED');
    expect(sandboxNameVerification({ accountType: 'LN_WALLET', address: 'bob105@wallet.example.com' })).toBe('INVALID_ACCOUNT');
  });
});

describe(sandboxLivenessOutcome.name, () => {
  const wallet = (address: string): AccountInfo => ({ accountType: 'ETHEREUM_WALLET', address });
  it.each([
    ['002', 'FAILED'],
    ['555', 'PASSED'],
  ])('address ending %s: %s', (suffix, outcome) => {
    expect(sandboxLivenessOutcome(wallet(`0x${'a'.repeat(37)}${suffix}`))).toBe(outcome);
  });
});
