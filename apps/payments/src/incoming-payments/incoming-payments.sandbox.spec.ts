import { sandboxRefundedSender } from './incoming-payments.sandbox';

describe(sandboxRefundedSender.name, () => {
  it.each([
    ['$fail.offramp.usd@sandbox.uma.money', 'OFFRAMP_FAILED'],
    ['$success.usd@sandbox.uma.money', undefined],
    ['$fail.offramp.usd@other.example', undefined],
    ['$constructor@sandbox.uma.money', undefined],
  ])('%s -> %s', (address, failureReason) => {
    expect(sandboxRefundedSender(address)?.failureReason).toBe(failureReason);
  });
});
