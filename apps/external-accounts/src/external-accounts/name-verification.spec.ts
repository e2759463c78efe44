import { AccountInfo } from '@paykit/contracts';
import { reviewDestination } from './name-verification';

const usd = (accountNumber: string): AccountInfo => ({ accountType: 'USD_ACCOUNT', accountNumber });

describe(reviewDestination.name, () => {
  it.each([
    ['102', { status: 'UNDER_REVIEW', verification: 'NOT_MATCHED', resolveLater: false }],
    ['103', { status: 'ACTIVE', verification: 'PARTIAL_MATCH', resolveLater: false }],
    ['104', { status: 'PENDING', verification: 'PENDING', resolveLater: true }],
    ['106', { status: 'ACTIVE', verification: 'UNSUPPORTED', resolveLater: false }],
    ['107', { status: 'ACTIVE', verification: 'CHECKED_BY_RECEIVING_FI', resolveLater: false }],
    ['555', { status: 'ACTIVE', verification: 'MATCHED', resolveLater: false }],
  ])('sandbox suffix %s decides %o', (suffix, decision) => {
    expect(reviewDestination(usd(`7777${suffix}`), true)).toEqual({ kind: 'DECIDED', ...decision });
  });

  it('rejects suffix 105 as an invalid account', () => {
    expect(reviewDestination(usd('7777105'), true)).toEqual({ kind: 'REJECTED' });
  });

  it('does not read magic values in production (no provider: UNSUPPORTED, ACTIVE)', () => {
    expect(reviewDestination(usd('7777102'), false)).toEqual({ kind: 'DECIDED', status: 'ACTIVE', verification: 'UNSUPPORTED', resolveLater: false });
    expect(reviewDestination(usd('7777105'), false).kind).toBe('DECIDED');
  });

  it('gives a self-custody LN_WALLET no verification result', () => {
    expect(reviewDestination({ accountType: 'LN_WALLET', address: 'sat@w.io' }, true)).toEqual({ kind: 'DECIDED', status: 'ACTIVE', verification: null, resolveLater: false });
  });
});
