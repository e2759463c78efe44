import { environmentTenantId, TransactionType } from '@paykit/contracts';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';
import { apiFailureReason, toTransaction } from './transaction.mapper';

const USD = { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2, isCrypto: false, maxTransferAmount: 100_000_000n };
const AT = new Date('2025-10-13T12:00:00.000Z');

function entity(type: TransactionType, changes: Partial<PaymentTransactionEntity> = {}): PaymentTransactionEntity {
  return {
    id: 'Transaction:1',
    platformId: 'Platform:1',
    type,
    status: 'PENDING',
    customerId: 'Customer:1',
    platformCustomerId: 'user-1',
    internalAccountId: 'InternalAccount:1',
    externalAccountId: 'ExternalAccount:1',
    currencyCode: 'USD',
    amount: 2_500n,
    holdId: null,
    description: null,
    failureReason: null,
    paymentRail: null,
    railSelectionMode: null,
    remittanceInformation: null,
    purposeOfPayment: null,
    cryptoNetwork: null,
    onChainTransactionHash: null,
    requestFingerprint: null,
    quoteId: null,
    receivedCurrencyCode: null,
    receivedAmount: null,
    counterpartyUmaAddress: null,
    receiptDeliveryConfirmedAt: null,
    counterpartyInformation: null,
    fees: null,
    platformFees: null,
    createdAt: AT,
    updatedAt: AT,
    settledAt: null,
    refundReference: null,
    refundStatus: null,
    refundReason: null,
    refundInitiatedAt: null,
    refundSettledAt: null,
    returnedAt: null,
    ...changes,
  };
}

describe(toTransaction.name, () => {
  it('shows a refund as the reference shapes it: settledAt only once it ended, nothing without one', () => {
    const later = new Date('2025-10-13T12:05:00.000Z');
    const refund = { refundReference: 'REFUND-1', refundReason: 'TRANSACTION_FAILED' as const, refundInitiatedAt: AT };
    expect(toTransaction(entity('OUTGOING'), USD, 'Platform:1').refund).toBeUndefined();
    expect(toTransaction(entity('OUTGOING', { status: 'FAILED', ...refund, refundStatus: 'PENDING' }), USD, 'Platform:1').refund).toEqual({
      reference: 'REFUND-1',
      initiatedAt: AT.toISOString(),
      status: 'PENDING',
      reason: 'TRANSACTION_FAILED',
    });
    expect(toTransaction(entity('OUTGOING', { status: 'FAILED', ...refund, refundStatus: 'COMPLETED', refundSettledAt: later }), USD, 'Platform:1').refund).toEqual({
      reference: 'REFUND-1',
      initiatedAt: AT.toISOString(),
      settledAt: later.toISOString(),
      status: 'COMPLETED',
      reason: 'TRANSACTION_FAILED',
    });
  });

  it('gives a payout its direction, typed ends and reference fields', () => {
    const tx = toTransaction(entity('OUTGOING', { paymentRail: 'WIRE', railSelectionMode: 'MANUAL', remittanceInformation: 'Inv 1', purposeOfPayment: 'GIFT' }), USD, 'Platform:1');
    expect(tx).toMatchObject({
      direction: 'DEBIT',
      customerId: 'Customer:1',
      platformCustomerId: 'user-1',
      source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1', currency: 'USD' },
      paymentRail: 'WIRE',
      railSelectionMode: 'MANUAL',
      remittanceInformation: 'Inv 1',
      purposeOfPayment: 'GIFT',
    });
  });

  it('gives a pull CREDIT and the external account as its source', () => {
    const tx = toTransaction(entity('INCOMING'), USD, 'Platform:1');
    expect(tx).toMatchObject({
      direction: 'CREDIT',
      source: { sourceType: 'ACCOUNT', accountId: 'ExternalAccount:1' },
      destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:1' },
    });
    expect(tx).not.toHaveProperty('paymentRail');
  });

  it("names the platform as customer of its own accounts' transactions", () => {
    expect(toTransaction(entity('OUTGOING', { customerId: null, platformCustomerId: null }), USD, 'Platform:1')).toMatchObject({
      customerId: 'Platform:1',
      platformCustomerId: 'Platform:1',
    });
  });

  it("names the platform, not its production tenant, on a production tenant's own transactions", () => {
    const tenant = environmentTenantId('Platform:1', 'production');
    expect(toTransaction(entity('OUTGOING', { customerId: null, platformCustomerId: null }), USD, tenant)).toMatchObject({
      customerId: 'Platform:1',
      platformCustomerId: 'Platform:1',
    });
  });
});

describe(apiFailureReason.name, () => {
  it.each([
    ['OUTGOING', 'INSUFFICIENT_FUNDS', 'LIMIT_EXCEEDED'],
    ['OUTGOING', 'ACCOUNT_CLOSED_OR_INVALID', 'ACCOUNT_INVALID'],
    ['OUTGOING', 'REJECTED_BY_BANK', 'ACCOUNT_CANNOT_RECEIVE'],
    ['OUTGOING', 'TIMED_OUT', 'PAYOUT_RETURNED'],
    ['INCOMING', 'INSUFFICIENT_FUNDS', 'COLLECTION_FAILED'],
    ['INCOMING', 'ACCOUNT_CLOSED_OR_INVALID', 'COLLECTION_FAILED'],
    ['INCOMING', 'REJECTED_BY_BANK', 'COLLECTION_FAILED'],
    ['INCOMING', 'TIMED_OUT', 'COLLECTION_FAILED'],
  ] as const)('%s %s -> %s', (type, cause, reason) => {
    expect(apiFailureReason(type, cause)).toBe(reason);
  });

  it('gives a payout to a wallet the on-chain leg of its destination: network and hash', () => {
    const tx = toTransaction(entity('OUTGOING', { cryptoNetwork: 'SOLANA', onChainTransactionHash: 'ab'.repeat(32) }), USD, 'Platform:1');
    expect(tx.destination).toEqual({
      destinationType: 'ACCOUNT',
      accountId: 'ExternalAccount:1',
      currency: 'USD',
      onChainTransaction: { network: 'SOLANA', transactionHash: 'ab'.repeat(32) },
    });
    expect(toTransaction(entity('OUTGOING'), USD, 'Platform:1').destination.onChainTransaction).toBeUndefined();
  });
});
