import { clabeOf, derivedPaymentAccountInfo, fundingPaymentInstructions, ibanOf, routingNumberOf } from './funding-instructions';

const ACCOUNT = 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';

/** ISO 7064 mod 97-10: a valid IBAN leaves remainder 1. */
function ibanValid(iban: string): boolean {
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of rearranged) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

describe('funding instructions', () => {
  describe(fundingPaymentInstructions.name, () => {
    it.each([
      ['USD', { accountType: 'USD_ACCOUNT', paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'], accountNumber: /^[0-9]{12}$/, routingNumber: /^[0-9]{9}$/ }],
      ['EUR', { accountType: 'EUR_ACCOUNT', paymentRails: ['SEPA', 'SEPA_INSTANT'], iban: /^DE[0-9]{20}$/, swiftCode: /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/ }],
      ['DKK', { accountType: 'DKK_ACCOUNT', iban: /^DK[0-9]{16}$/ }],
      ['AED', { accountType: 'AED_ACCOUNT', iban: /^AE[0-9]{21}$/ }],
      ['GBP', { accountType: 'GBP_ACCOUNT', paymentRails: ['FASTER_PAYMENTS'], sortCode: /^[0-9]{6}$/, accountNumber: /^[0-9]{8}$/ }],
      ['MXN', { accountType: 'MXN_ACCOUNT', paymentRails: ['SPEI'], clabeNumber: /^[0-9]{18}$/ }],
      ['BRL', { accountType: 'BRL_ACCOUNT', qrCode: /^0002/ }],
      ['COP', { accountType: 'COP_ACCOUNT', paymentUrl: /^https:\/\// }],
      ['INR', { accountType: 'INR_ACCOUNT', paymentRails: ['UPI'], vpa: /^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$/ }],
      ['PHP', { accountType: 'PHP_ACCOUNT', accountNumber: /^[0-9]{8,16}$/, bankName: /./ }],
      ['NGN', { accountType: 'NGN_ACCOUNT', accountNumber: /^[0-9]{10}$/ }],
      ['ZAR', { accountType: 'ZAR_ACCOUNT', accountNumber: /^[0-9]{9,13}$/ }],
      ['CAD', { accountType: 'CAD_ACCOUNT', bankCode: /^[0-9]{3}$/, branchCode: /^[0-9]{5}$/, accountNumber: /^[0-9]{7,12}$/ }],
      ['SGD', { accountType: 'SGD_ACCOUNT', paymentRails: ['PAYNOW', 'FAST', 'BANK_TRANSFER'] }],
      ['IDR', { accountType: 'IDR_ACCOUNT', phoneNumber: /^\+62[0-9]{9,12}$/ }],
      ['KES', { accountType: 'KES_ACCOUNT', paymentRails: ['MOBILE_MONEY'], phoneNumber: /^\+254[0-9]{9}$/, provider: /./ }],
      ['XOF', { accountType: 'XOF_ACCOUNT', phoneNumber: /^\+221[0-9]{9}$/, region: /^SN$/ }],
      ['XAF', { accountType: 'XAF_ACCOUNT', region: /^CM$/ }],
      ['BTC', { accountType: 'BITCOIN_L1', network: /^BITCOIN$/, address: /^bc1q/ }],
      ['USDC', { accountType: 'SOLANA_WALLET', assetType: /^USDC$/, address: /^[1-9A-HJ-NP-Za-km-z]{44}$/ }],
      ['USDT', { accountType: 'SOLANA_WALLET', assetType: /^USDT$/ }],
    ])('%s: the rail and fields the API lists for the account type', (currencyCode, expected) => {
      const [instructions] = fundingPaymentInstructions({ id: ACCOUNT, type: 'INTERNAL_FIAT', currencyCode, customerId: 'Customer:x' });
      expect(instructions.isPlatformAccount).toBe(false);
      for (const [field, value] of Object.entries(expected)) {
        const actual = (instructions.accountOrWalletInfo as unknown as Record<string, unknown>)[field];
        if (value instanceof RegExp) expect(actual).toMatch(value);
        else expect(actual).toEqual(value);
      }
    });

    it('is the same for the same account and differs between accounts', () => {
      const target = { id: ACCOUNT, type: 'INTERNAL_FIAT' as const, currencyCode: 'USD', customerId: null };
      expect(fundingPaymentInstructions(target)).toEqual(fundingPaymentInstructions({ ...target }));
      const other = fundingPaymentInstructions({ ...target, id: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a70' });
      expect(other[0].accountOrWalletInfo.accountNumber).not.toBe(fundingPaymentInstructions(target)[0].accountOrWalletInfo.accountNumber);
      expect(other[0].accountOrWalletInfo.reference).not.toBe(fundingPaymentInstructions(target)[0].accountOrWalletInfo.reference);
    });

    it("marks the platform's own accounts and gives a currency without instructions none", () => {
      expect(fundingPaymentInstructions({ id: ACCOUNT, type: 'INTERNAL_FIAT', currencyCode: 'USD', customerId: null })[0].isPlatformAccount).toBe(true);
      expect(fundingPaymentInstructions({ id: ACCOUNT, type: 'INTERNAL_FIAT', currencyCode: 'XYZ', customerId: null })).toEqual([]);
    });
  });

  describe(derivedPaymentAccountInfo.name, () => {
    const QUOTE = 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';

    it("gives a quote's own details with the quote's reference, the same on every call, none shared with an account", () => {
      const info = derivedPaymentAccountInfo('USD', QUOTE, { reference: 'QT-1A2B3C4D5E6F' });
      expect(info).toMatchObject({ accountType: 'USD_ACCOUNT', reference: 'QT-1A2B3C4D5E6F', accountNumber: /^[0-9]{12}$/, routingNumber: /^[0-9]{9}$/ });
      expect(derivedPaymentAccountInfo('USD', QUOTE, { reference: 'QT-1A2B3C4D5E6F' })).toEqual(info);
      expect(info!.accountNumber).not.toBe(derivedPaymentAccountInfo('USD', ACCOUNT)!.accountNumber);
      expect(derivedPaymentAccountInfo('XYZ', QUOTE)).toBeUndefined();
    });

    it.each([
      ['SOLANA', 'SOLANA_WALLET', /^[1-9A-HJ-NP-Za-km-z]{44}$/],
      ['solana', 'SOLANA_WALLET', /^[1-9A-HJ-NP-Za-km-z]{44}$/],
      ['TRON', 'TRON_WALLET', /^T[1-9A-HJ-NP-Za-km-z]{33}$/],
      ['ETHEREUM', 'ETHEREUM_WALLET', /^0x[0-9a-f]{40}$/],
      ['BASE', 'BASE_WALLET', /^0x[0-9a-f]{40}$/],
      ['POLYGON', 'POLYGON_WALLET', /^0x[0-9a-f]{40}$/],
      ['PLASMA', 'PLASMA_WALLET', /^0x[0-9a-f]{40}$/],
      ['LIGHTNING', 'SOLANA_WALLET', /^[1-9A-HJ-NP-Za-km-z]{44}$/],
    ])('gives USDC on %s a %s', (cryptoNetwork, accountType, address) => {
      expect(derivedPaymentAccountInfo('USDC', QUOTE, { cryptoNetwork })).toEqual({ accountType, address: expect.stringMatching(address), assetType: 'USDC' });
    });

    it('ignores a network for a currency that is not a stablecoin', () => {
      expect(derivedPaymentAccountInfo('BTC', QUOTE, { cryptoNetwork: 'BASE' })).toMatchObject({ accountType: 'BITCOIN_L1' });
    });
  });

  describe('check digits', () => {
    it('makes valid IBANs', () => {
      expect(ibanOf('DE', '370400440532013000')).toBe('DE89370400440532013000');
      expect(ibanValid(ibanOf('DK', '00400440116243'))).toBe(true);
    });

    it('makes routing numbers that pass the ABA checksum', () => {
      expect(routingNumberOf('02100002')).toBe('021000021');
    });

    it('makes CLABEs that pass their checksum', () => {
      expect(clabeOf('03218000011835971')).toBe('032180000118359719');
    });
  });
});
