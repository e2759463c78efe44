import { quoteOutcome, SANDBOX_QUOTE_OUTCOMES, SANDBOX_SLOW_COMPLETION_MS, SANDBOX_UMA_QUOTE_OUTCOMES } from './quotes.sandbox';

describe('quoteOutcome', () => {
  const path = (key: string | null) => {
    const outcome = quoteOutcome(key);
    return outcome.kind === 'FAILS_AT_EXECUTION'
      ? `FAILED(${outcome.failureReason})`
      : outcome.steps.map((s) => `${s.status}${s.failureReason ? `(${s.failureReason})` : ''}${s.refundReason ? `(${s.refundReason})` : ''}`).join(' > ');
  };

  it.each([
    ['...002', 'FAILED(QUOTE_EXECUTION_FAILED)'],
    ['...003', 'PROCESSING > COMPLETED'],
    ['...004', 'PROCESSING > FAILED(ACCOUNT_CANNOT_RECEIVE) > REFUND_PENDING(TRANSACTION_FAILED) > REFUND_COMPLETED'],
    ['...005', 'PROCESSING > COMPLETED > FAILED(PAYOUT_RETURNED) > REFUND_PENDING(TRANSACTION_FAILED) > REFUND_COMPLETED'],
    ['...006', 'FAILED(QUOTE_EXECUTION_FAILED) > REFUND_PENDING(USER_CANCELLATION) > REFUND_COMPLETED'],
    ['...007', 'PROCESSING > FAILED(COUNTERPARTY_POST_TX_FAILED) > REFUND_PENDING(TRANSACTION_FAILED) > REFUND_FAILED'],
    ['...001', 'PROCESSING > COMPLETED'],
    ['UMA_LONG_PENDING', 'PROCESSING > COMPLETED'],
    ['UMA_COMPLIANCE_FAILURE', 'FAILED(COMPLIANCE_REJECTED) > REFUND_PENDING(TRANSACTION_FAILED) > REFUND_COMPLETED'],
  ])('%s: %s', (key, expected) => {
    expect(path(key.replace('...', '123'))).toBe(expected);
  });

  it('succeeds without a key (production, internal destinations)', () => {
    expect(path(null)).toBe('PROCESSING > COMPLETED');
  });

  it('takes about 6 minutes from execution to completion for 003 and the long-pending receiver', () => {
    for (const outcome of [SANDBOX_QUOTE_OUTCOMES['003'], SANDBOX_UMA_QUOTE_OUTCOMES.UMA_LONG_PENDING]) {
      if (outcome.kind !== 'ACCEPTED') throw new Error('accepted expected');
      expect(outcome.steps.reduce((total, step) => total + step.delayMs, 0)).toBe(SANDBOX_SLOW_COMPLETION_MS);
    }
  });
});
