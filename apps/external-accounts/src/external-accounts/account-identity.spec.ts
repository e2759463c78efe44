import { destinationFingerprint, identifierLast3, primaryIdentifier } from './account-identity';

describe(primaryIdentifier.name, () => {
  it.each([
    [{ accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021' }, '123456789'],
    [{ accountType: 'MXN_ACCOUNT', clabeNumber: '002010077777777771' }, '002010077777777771'],
    [{ accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000' }, 'DE89370400440532013000'],
    [{ accountType: 'SWIFT_ACCOUNT', accountNumber: 'AB1234' }, 'AB1234'],
    [{ accountType: 'COP_ACCOUNT', phoneNumber: '+573001234567' }, '+573001234567'],
    [{ accountType: 'KES_ACCOUNT', phoneNumber: '+254712345678' }, '+254712345678'],
    [{ accountType: 'BRL_ACCOUNT', pixKey: 'a@b.co' }, 'a@b.co'],
    [{ accountType: 'AED_ACCOUNT', iban: 'AE070331234567890123456' }, 'AE070331234567890123456'],
    [{ accountType: 'PKR_ACCOUNT', bankName: 'HBL', iban: 'PK36SCBL0000001123456702' }, 'PK36SCBL0000001123456702'],
    [{ accountType: 'GHS_ACCOUNT', bankName: 'MTN Mobile Money', phoneNumber: '+233241234567' }, '+233241234567'],
    [{ accountType: 'HTG_ACCOUNT', phoneNumber: '+50931234567' }, '+50931234567'],
    [{ accountType: 'INR_ACCOUNT', accountNumber: '000111222333', ifsc: 'HDFC0001234' }, '000111222333'],
    [{ accountType: 'SOLANA_WALLET', address: '4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg' }, '4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg'],
    [{ accountType: 'LIGHTNING', invoice: 'lnbc1', lightningAddress: 'bob105@wallet.example.com' }, 'bob105@wallet.example.com'],
  ] as const)('%o -> %s', (info, expected) => {
    expect(primaryIdentifier(info as never)).toBe(expected);
  });
});

describe(identifierLast3.name, () => {
  it.each([
    ['000123456789', '789'],
    ['maria107@example.com', '107'],
    ['12', '12'],
  ])('%s -> %s', (identifier, expected) => {
    expect(identifierLast3(identifier)).toBe(expected);
  });
});

describe(destinationFingerprint.name, () => {
  it('ignores labels, beneficiary and case, and tells destinations apart', () => {
    const a = destinationFingerprint('INR', { accountType: 'INR_ACCOUNT', vpa: 'Priya@OkAxis', beneficiary: { fullName: 'A' } });
    expect(destinationFingerprint('INR', { accountType: 'INR_ACCOUNT', vpa: 'priya@okaxis', beneficiary: { fullName: 'B' } })).toBe(a);
    expect(destinationFingerprint('INR', { accountType: 'INR_ACCOUNT', vpa: 'priya2@okaxis' })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});
