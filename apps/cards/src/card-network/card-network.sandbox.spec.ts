import { sandboxNetworkOutcome } from './card-network.sandbox';

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
});
