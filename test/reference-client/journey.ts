import { encryptOtpCodeToBundle } from '@turnkey/crypto';
import { ApiClient } from '../support/api-client';
import { eventually } from '../support/test-stack';
import { newClientKey, stamp } from '../support/wallet-auth-client';
import { ReferenceClient, Schemas } from './reference-client';

/**
 * The "done means" journey of issue 16, written against the reference document's types only:
 * customers (individual and business), KYC, external accounts per corridor, funding, a transfer
 * out, a card, and the sandbox card network (authorization, clearing, return). Each step is one
 * method so the spec reports each on its own; state flows from one step to the next.
 */

const ADDRESS_US: Schemas['Address'] = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const ADDRESS_GB: Schemas['Address'] = { line1: '10 Downing St', city: 'London', postalCode: 'SW1A 2AA', country: 'GB' };

function unique(label: string): string {
  return `${label}-${Math.random().toString(36).slice(2, 10)}`;
}

/** The external account bodies of the corridors the journey drives, each valid against the reference. */
export const CORRIDORS: Record<string, Schemas['ExternalAccountCreateRequest']['accountInfo']> = {
  USD: {
    accountType: 'USD_ACCOUNT',
    accountNumber: '123456789',
    routingNumber: '123456789',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', address: ADDRESS_US },
  },
  MXN: {
    accountType: 'MXN_ACCOUNT',
    clabeNumber: '123456789012345678',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
  },
  EUR: {
    accountType: 'EUR_ACCOUNT',
    iban: 'DE89370400440532013000',
    beneficiary: {
      beneficiaryType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      countryOfResidence: 'DE',
      address: { ...ADDRESS_GB, country: 'DE', city: 'Berlin', postalCode: '10115' },
    },
  },
  PHP: {
    accountType: 'PHP_ACCOUNT',
    bankName: 'BDO Unibank',
    accountNumber: '001234567890',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
  },
  CAD: {
    accountType: 'CAD_ACCOUNT',
    bankCode: '001',
    branchCode: '00012',
    accountNumber: '1234567',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', address: { ...ADDRESS_US, country: 'CA', city: 'Toronto', state: 'ON', postalCode: 'M5H 2N2' } },
  },
  KES: {
    accountType: 'KES_ACCOUNT',
    phoneNumber: '+254712345678',
    provider: 'MPESA',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
  },
  BRL: {
    accountType: 'BRL_ACCOUNT',
    pixKey: 'ada@example.com',
    pixKeyType: 'EMAIL',
    taxId: '12345678901',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
  },
  NGN: {
    accountType: 'NGN_ACCOUNT',
    accountNumber: '0123456789',
    bankName: 'Access Bank',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
  },
  GBP: {
    accountType: 'GBP_ACCOUNT',
    sortCode: '123456',
    accountNumber: '12345678',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', address: ADDRESS_GB },
  },
};

/** A card transaction in the reference's words: SPEC.md's CONFIRMED is the reference's AUTHORIZED. */
function inReferenceTerms(transaction: Schemas['CardTransaction']): unknown {
  const status: string = transaction.status;
  return status === 'CONFIRMED' ? { ...transaction, status: 'AUTHORIZED' } : transaction;
}

export class ReferenceJourney {
  readonly client: ReferenceClient;
  individual?: Schemas['IndividualCustomer'];
  business?: Schemas['BusinessCustomer'];
  readonly externalAccounts: Record<string, Schemas['ExternalAccount']> = {};
  usdAccount?: Schemas['InternalAccount'];
  cardAccount?: Schemas['InternalAccount'];
  card?: Schemas['Card'];
  authorization?: Schemas['CardTransaction'];
  private setUpCustomerId?: string;

  constructor(api: ApiClient) {
    this.client = new ReferenceClient(api);
  }

  /** What the reference checks found since the last call (each step asserts it found nothing). */
  takeMismatches(): string[] {
    return this.client.mismatches.splice(0);
  }

  async createIndividual(): Promise<void> {
    // The sandbox's KYC outcome is keyed on the name's last characters: 789 approves.
    const body: Schemas['IndividualCustomerCreateRequest'] = {
      customerType: 'INDIVIDUAL',
      platformCustomerId: unique('ind'),
      fullName: 'Ada Lovelace 789',
      birthDate: '1990-04-12',
      nationality: 'GB',
      email: `${unique('ada')}@example.com`,
      address: ADDRESS_US,
    };
    const created = await this.client.call('post', '/customers', 201, { body });
    this.individual = created as Schemas['IndividualCustomer'];
  }

  async createBusiness(): Promise<void> {
    const body: Schemas['BusinessCustomerCreateRequest'] = {
      customerType: 'BUSINESS',
      platformCustomerId: unique('biz'),
      email: `${unique('ops')}@acme.example`,
      businessInfo: { legalName: 'Acme Payments LLC', country: 'US', incorporatedOn: '2018-03-14', taxId: '47-1234567', registrationNumber: '5523041' },
      address: ADDRESS_US,
    };
    const created = await this.client.call('post', '/customers', 201, { body });
    this.business = created as Schemas['BusinessCustomer'];
  }

  async verifyIndividual(): Promise<Schemas['Verification']> {
    const customerId = this.required(this.individual?.id, 'individual customer');
    const verification = await this.client.call('post', '/verifications', 200, { body: { customerId } });
    await this.client.call('get', '/customers/{customerId}', 200, { path: { customerId } });
    // The business's KYB: whatever its outcome, the answer is the reference's Verification.
    if (this.business?.id) await this.client.call('post', '/verifications', 200, { body: { customerId: this.business.id } });
    return verification;
  }

  async addExternalAccount(currency: string): Promise<Schemas['ExternalAccount']> {
    const customerId = this.required(this.individual?.id, 'individual customer');
    const body: Schemas['ExternalAccountCreateRequest'] = { customerId, currency, accountInfo: CORRIDORS[currency] };
    const account = await this.client.call('post', '/customers/external-accounts', 201, { body });
    await this.client.call('get', '/customers/external-accounts/{externalAccountId}', 200, { path: { externalAccountId: account.id } });
    this.externalAccounts[currency] = account;
    return account;
  }

  async fund(): Promise<void> {
    const customerId = this.individual?.id ?? (await this.setUpCustomer());
    const accounts = await eventually(async () => {
      const listed = await this.client.call('get', '/customers/internal-accounts', 200, { query: { customerId } });
      return listed.data.some((account) => account.type === 'EMBEDDED_WALLET') ? listed : undefined;
    });
    this.usdAccount = accounts.data.find((account) => account.balance.currency.code === 'USD');
    this.cardAccount = accounts.data.find((account) => account.type === 'EMBEDDED_WALLET');
    const usd = this.required(this.usdAccount, 'USD internal account');
    this.usdAccount = await this.client.call('post', '/sandbox/internal-accounts/{accountId}/fund', 200, { path: { accountId: usd.id }, body: { amount: 100_000 } });
    const wallet = this.required(this.cardAccount, 'embedded wallet account');
    this.cardAccount = await this.client.call('post', '/sandbox/internal-accounts/{accountId}/fund', 200, { path: { accountId: wallet.id }, body: { amount: 50_000_000 } });
  }

  async transferOut(): Promise<Schemas['TransactionOneOf']> {
    const source = this.required(this.usdAccount, 'funded USD internal account');
    const destination = this.required(this.externalAccounts.USD, 'USD external account');
    const body: Schemas['TransferOutRequest'] = { source: { accountId: source.id }, destination: { accountId: destination.id }, amount: 1_000 };
    const transaction = await this.client.call('post', '/transfer-out', 201, { body });
    await this.client.call('get', '/transactions/{transactionId}', 200, { path: { transactionId: transaction.id } });
    return transaction;
  }

  async issueCard(): Promise<void> {
    const cardholderId = this.individual?.id ?? (await this.setUpCustomer());
    const source = this.required(this.cardAccount, 'card funding account');
    const body: Schemas['CardCreateRequest'] = { cardholderId, form: 'VIRTUAL', fundingSources: [source.id], platformCardId: unique('card') };
    this.card = await this.client.call('post', '/cards', 201, { body });
    await this.client.call('get', '/cards/{id}', 200, { path: { id: this.card.id } });
  }

  /**
   * SPEC.md: the simulators answer the CardTransaction (with the reference's 202), not only the
   * issuer token, and an approved authorization is CONFIRMED where the reference says AUTHORIZED
   * (docs/reference-divergences.md, Cards).
   */
  async authorize(): Promise<void> {
    const card = this.required(this.card, 'card');
    const body: Schemas['SandboxCardAuthorizationRequest'] = { amount: 1_250, currency: { code: 'USDC' }, merchant: { descriptor: 'COFFEE SHOP 123', mcc: '5814', country: 'US' } };
    this.authorization = await this.client.callDivergent(
      'post',
      '/sandbox/cards/{id}/simulate/authorization',
      202,
      'CardTransaction',
      { path: { id: card.id }, body },
      inReferenceTerms,
    );
  }

  async clear(): Promise<void> {
    const card = this.required(this.card, 'card');
    const authorization = this.required(this.authorization, 'authorization');
    const body: Schemas['SandboxCardClearingRequest'] = { cardTransactionId: authorization.id, amount: 1_250 };
    await this.client.callDivergent('post', '/sandbox/cards/{id}/simulate/clearing', 202, 'CardTransaction', { path: { id: card.id }, body }, inReferenceTerms);
  }

  async refund(): Promise<void> {
    const card = this.required(this.card, 'card');
    const authorization = this.required(this.authorization, 'authorization');
    const body: Schemas['SandboxCardReturnRequest'] = { cardTransactionId: authorization.id, amount: 1_250 };
    await this.client.callDivergent('post', '/sandbox/cards/{id}/simulate/return', 202, 'CardTransaction', { path: { id: card.id }, body }, inReferenceTerms);
  }

  /**
   * Embedded wallet auth as the reference describes it, on a wallet of its own: the account's
   * EMAIL_OTP credential, a fresh OTP challenge, the encrypted code, the signed second leg, the
   * session listed, and the session revoked by signed retry (202 naming the credential type, 204).
   */
  async walletLogin(api: ApiClient): Promise<Schemas['AuthSession']> {
    const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Grace Hopper', email: `${unique('grace')}@example.com` });
    if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${JSON.stringify(customer.body)}`);
    const customerId = String(customer.body.id);
    const accountId = await eventually(async () => {
      const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`);
      return accounts.status === 200 && accounts.body.data.length > 0 ? String(accounts.body.data[0].id) : undefined;
    });
    const credentials = await eventually(async () => {
      const listed = await this.client.call('get', '/auth/credentials', 200, { query: { accountId } });
      return listed.data.length > 0 ? listed : undefined;
    });
    const credential = credentials.data.find((method) => method.type === 'EMAIL_OTP');
    const id = this.required(credential, 'EMAIL_OTP credential').id;

    const challenge = await this.client.call('post', '/auth/credentials/{id}/challenge', 200, { path: { id }, body: {} });
    if (!('otpEncryptionTargetBundle' in challenge) || !challenge.otpEncryptionTargetBundle) throw new Error('the OTP challenge carries no otpEncryptionTargetBundle');
    const key = newClientKey();
    const enclave = (await api.get('/auth/enclave-key')).body.enclaveQuorumPublic as string;
    const body: Schemas['EmailOtpCredentialVerifyRequest'] = {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await encryptOtpCodeToBundle('000000', challenge.otpEncryptionTargetBundle, key.publicKey, enclave),
    };
    const signing = await this.client.call('post', '/auth/credentials/{id}/verify', 202, { path: { id }, body });
    if (signing.type !== 'EMAIL_OTP') throw new Error(`the verify challenge names ${signing.type}, not EMAIL_OTP`);
    const session = await this.client.call('post', '/auth/credentials/{id}/verify', 200, {
      path: { id },
      body,
      headers: { 'service-wallet-signature': await stamp(signing.payloadToSign, key), 'request-id': signing.requestId },
    });
    await this.client.call('get', '/auth/sessions', 200, { query: { accountId } });
    const revoke = await this.client.call('delete', '/auth/sessions/{id}', 202, { path: { id: session.id } });
    await this.client.call('delete', '/auth/sessions/{id}', 204, {
      path: { id: session.id },
      headers: { 'service-wallet-signature': await stamp(revoke.payloadToSign, key), 'request-id': revoke.requestId },
    });
    return session;
  }

  /**
   * A customer made outside the reference checks, for steps that only need one to exist (so a
   * step whose own answers already match does not wait on the customer step's).
   */
  private async setUpCustomer(): Promise<string> {
    if (this.setUpCustomerId) return this.setUpCustomerId;
    const customer = await this.client.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace 789', email: `${unique('setup')}@example.com` });
    if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${JSON.stringify(customer.body)}`);
    // The 789 suffix approves KYC in the sandbox: the customer can hold a card.
    const verification = await this.client.api.post('/verifications', { customerId: customer.body.id });
    if (verification.status !== 200) throw new Error(`verification: ${verification.status} ${JSON.stringify(verification.body)}`);
    this.setUpCustomerId = String(customer.body.id);
    return this.setUpCustomerId;
  }

  private required<T>(value: T | undefined, what: string): T {
    if (value === undefined) throw new Error(`the journey has no ${what} yet (an earlier step failed)`);
    return value;
  }
}
