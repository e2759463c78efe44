import { ServiceError } from '@paykit/errors';
import { sandboxUmaOutcomeKey, sandboxUmaReceiver } from './receiver-lookup.sandbox';
import { parseUmaAddress } from './uma-address';

describe('sandboxUmaReceiver', () => {
  it.each([
    ['$success.usd@sandbox.uma.money', 'USD', null],
    ['$success.eur@sandbox.uma.money', 'EUR', null],
    ['$success.mxn@sandbox.uma.money', 'MXN', null],
    ['$pending.long.usd@sandbox.uma.money', 'USD', 'UMA_LONG_PENDING'],
    ['$fail.compliance.usd@sandbox.uma.money', 'USD', 'UMA_COMPLIANCE_FAILURE'],
  ])('%s receives %s (outcome %s)', (address, currency, outcome) => {
    const receiver = sandboxUmaReceiver(address)!;
    expect(receiver.currency).toBe(currency);
    expect(sandboxUmaOutcomeKey(receiver.behaviour)).toBe(outcome);
  });

  it.each(['$success.usd@other.example', '$nobody@sandbox.uma.money', '$constructor@sandbox.uma.money'])('%s is no sandbox receiver', (address) => {
    expect(sandboxUmaReceiver(address)).toBeUndefined();
  });
});

describe('parseUmaAddress', () => {
  it.each([
    ['$Ada.Lovelace+1@Platform.Example', '$ada.lovelace+1@platform.example'],
    [`$${'a'.repeat(63)}@x.example`, `$${'a'.repeat(63)}@x.example`],
  ])('accepts %s as %s', (value, expected) => {
    expect(parseUmaAddress(value, 'umaAddress')).toBe(expected);
  });

  it.each(['ada@x.example', '$ada', '$a b@x.example', `$${'a'.repeat(64)}@x.example`, '$ada@localhost'])('refuses %s with INVALID_UMA_ADDRESS', (value) => {
    expect(() => parseUmaAddress(value, 'umaAddress')).toThrow(expect.objectContaining({ code: 'INVALID_UMA_ADDRESS' }) as ServiceError);
  });
});
