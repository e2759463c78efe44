import { SANDBOX_LONG_PENDING_MS, SANDBOX_SETTLE_DELAY_MS, transferOutcome } from './transfers.sandbox';

describe(transferOutcome.name, () => {
  it.each([
    ['002', { kind: 'FAILS_IMMEDIATELY', failureReason: 'INSUFFICIENT_FUNDS' }],
    ['003', { kind: 'FAILS_IMMEDIATELY', failureReason: 'ACCOUNT_CLOSED_OR_INVALID' }],
    ['004', { kind: 'ACCEPTED', steps: [{ status: 'FAILED', delayMs: SANDBOX_SETTLE_DELAY_MS, failureReason: 'REJECTED_BY_BANK' }] }],
    [
      '005',
      {
        kind: 'ACCEPTED',
        steps: [
          { status: 'PROCESSING', delayMs: SANDBOX_SETTLE_DELAY_MS },
          { status: 'FAILED', delayMs: SANDBOX_LONG_PENDING_MS - SANDBOX_SETTLE_DELAY_MS, failureReason: 'TIMED_OUT' },
        ],
      },
    ],
    ['001', { kind: 'ACCEPTED', steps: [{ status: 'COMPLETED', delayMs: SANDBOX_SETTLE_DELAY_MS }] }],
    ['789', { kind: 'ACCEPTED', steps: [{ status: 'COMPLETED', delayMs: SANDBOX_SETTLE_DELAY_MS }] }],
  ])('sandbox suffix %s', (suffix, outcome) => {
    expect(transferOutcome(true, suffix)).toEqual(outcome);
  });

  it('never reads the sandbox table outside the sandbox', () => {
    expect(transferOutcome(false, '002')).toEqual({ kind: 'ACCEPTED', steps: [{ status: 'COMPLETED', delayMs: SANDBOX_SETTLE_DELAY_MS }] });
  });

  it('puts the 005 failure about 30 s after acceptance', () => {
    const outcome = transferOutcome(true, '005');
    expect(outcome.kind === 'ACCEPTED' && outcome.steps.reduce((total, step) => total + step.delayMs, 0)).toBe(30_000);
  });
});
