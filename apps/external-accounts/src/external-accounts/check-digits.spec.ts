import { isValidAbaRoutingNumber, isValidClabe, isValidIbanChecksum } from './check-digits';

describe('bank-grade check digits', () => {
  it.each([
    ['DE89370400440532013000', true],
    ['GB29NWBK60161331926819', true],
    ['FR1420041010050500013M02606', true],
    ['DE89370400440532013001', false],
    ['de89370400440532013000', false],
  ])('IBAN %s valid: %s', (iban, valid) => {
    expect(isValidIbanChecksum(iban)).toBe(valid);
  });

  it.each([
    ['021000021', true],
    ['011000015', true],
    ['123456789', false],
    ['02100002', false],
  ])('ABA routing number %s valid: %s', (routing, valid) => {
    expect(isValidAbaRoutingNumber(routing)).toBe(valid);
  });

  it.each([
    ['002010077777777771', true],
    ['002010077777777772', false],
    ['00201007777777777', false],
  ])('CLABE %s valid: %s', (clabe, valid) => {
    expect(isValidClabe(clabe)).toBe(valid);
  });
});
