import { SANDBOX_DESCRIPTOR_SUFFIX_TABLE } from '@paykit/contracts';
import { DESCRIPTOR_OUTCOMES, sandboxNetworkOutcome } from './card-network.sandbox';

describe(sandboxNetworkOutcome.name, () => {
  it.each([
    ['SHOP 002', { kind: 'DECLINE', reason: 'INSUFFICIENT_FUNDS' }],
    ['SHOP 003', { kind: 'DECLINE', reason: 'CARD_PAUSED' }],
    ['SHOP 005', { kind: 'DELAYED_PULL', delayMs: 30_000 }],
    ['SHOP 006', { kind: 'CONFIRMATION_FAILED' }],
    ['SHOP 001', { kind: 'APPROVE' }],
    ['SHOP 004', { kind: 'APPROVE' }],
    ['COFFEE', { kind: 'APPROVE' }],
  ])('descriptor %s -> %j', (descriptor, outcome) => {
    expect(sandboxNetworkOutcome(descriptor)).toEqual(outcome);
  });

  it('has a row for exactly the suffixes of the named table in libs/contracts (what the console lists)', () => {
    expect(Object.keys(DESCRIPTOR_OUTCOMES).sort()).toEqual(SANDBOX_DESCRIPTOR_SUFFIX_TABLE.map((row) => row.suffix).sort());
  });
});
