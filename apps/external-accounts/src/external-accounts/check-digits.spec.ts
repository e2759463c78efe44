import { checkDigitWarnings, isValidAbaRoutingNumber, isValidClabe, isValidIbanChecksum } from './check-digits';

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

describe(checkDigitWarnings.name, () => {
  it('names a well-shaped identifier whose check digit is wrong (a warning, never an error)', () => {
    expect(checkDigitWarnings('USD_ACCOUNT', { routingNumber: '123456789' }, 'accountInfo')).toEqual([
      { field: 'accountInfo.routingNumber', message: 'accountInfo.routingNumber fails the ABA check digit: check it before sending money' },
    ]);
    expect(checkDigitWarnings('SWIFT_ACCOUNT', { iban: 'DE89370400440532013001' }, 'accountInfo')).toEqual([expect.objectContaining({ field: 'accountInfo.iban' })]);
    expect(checkDigitWarnings('MXN_ACCOUNT', { clabeNumber: '123456789012345678' }, 'accountInfo')).toEqual([expect.objectContaining({ field: 'accountInfo.clabeNumber' })]);
    expect(checkDigitWarnings('DKK_ACCOUNT', { iban: 'DK5000400040116244' }, 'accountInfo')).toEqual([expect.objectContaining({ field: 'accountInfo.iban' })]);
  });

  it('leaves valid, absent and ill-shaped values alone (the wire shape reports those)', () => {
    expect(checkDigitWarnings('MXN_ACCOUNT', { clabeNumber: '002010077777777771' }, 'accountInfo')).toEqual([]);
    expect(checkDigitWarnings('EUR_ACCOUNT', {}, 'accountInfo')).toEqual([]);
    expect(checkDigitWarnings('MXN_ACCOUNT', { clabeNumber: '12' }, 'accountInfo')).toEqual([]);
    expect(checkDigitWarnings('GBP_ACCOUNT', { accountNumber: '38290008' }, 'accountInfo')).toEqual([]);
  });
});
