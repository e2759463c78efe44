import { ExternalAccount } from '@paykit/contracts';
import { defaultRail, railsOf } from './payment-rails';

function account(accountInfo: Record<string, unknown>): ExternalAccount {
  return {
    id: 'ExternalAccount:1',
    status: 'ACTIVE',
    currency: 'USD',
    platformAccountId: 'p',
    accountInfo: accountInfo as ExternalAccount['accountInfo'],
    createdAt: '',
    updatedAt: '',
  };
}

describe(defaultRail.name, () => {
  it.each([
    [{ accountType: 'USD_ACCOUNT' }, 'ACH'],
    [{ accountType: 'USD_ACCOUNT', paymentRails: ['RTP', 'ACH'] }, 'RTP'],
    [{ accountType: 'EUR_ACCOUNT' }, 'SEPA'],
    [{ accountType: 'MXN_ACCOUNT' }, 'SPEI'],
    [{ accountType: 'KES_ACCOUNT' }, 'MOBILE_MONEY'],
    [{ accountType: 'COP_ACCOUNT', phoneNumber: '+573001234567' }, 'MOBILE_MONEY'],
    [{ accountType: 'COP_ACCOUNT', accountNumber: '123' }, 'BANK_TRANSFER'],
    [{ accountType: 'NGN_ACCOUNT' }, 'BANK_TRANSFER'],
    [{ accountType: 'LN_WALLET' }, undefined],
  ])('%j -> %s', (info, rail) => {
    expect(defaultRail(account(info))).toBe(rail);
  });
});

describe(railsOf.name, () => {
  it('keeps the known rails the account lists, and says nothing when it lists none', () => {
    expect(railsOf(account({ accountType: 'USD_ACCOUNT', paymentRails: ['ACH', 'TELEGRAPH'] }))).toEqual(['ACH']);
    expect(railsOf(account({ accountType: 'USD_ACCOUNT' }))).toBeUndefined();
  });
});
