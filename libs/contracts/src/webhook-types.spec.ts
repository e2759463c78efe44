import { transactionWebhookType } from './payments';
import { currentWebhookType } from './webhooks';

describe(transactionWebhookType.name, () => {
  it.each([
    ['OUTGOING', 'PENDING', 'OUTGOING_PAYMENT.PENDING'],
    ['OUTGOING', 'PROCESSING', 'OUTGOING_PAYMENT.PROCESSING'],
    ['OUTGOING', 'COMPLETED', 'OUTGOING_PAYMENT.COMPLETED'],
    ['OUTGOING', 'FAILED', 'OUTGOING_PAYMENT.FAILED'],
    ['INCOMING', 'PENDING', 'INCOMING_PAYMENT.PENDING'],
    ['INCOMING', 'PROCESSING', undefined],
    ['INCOMING', 'COMPLETED', 'INCOMING_PAYMENT.COMPLETED'],
    ['INCOMING', 'FAILED', 'INCOMING_PAYMENT.FAILED'],
  ] as const)('%s entering %s -> %s', (type, status, webhookType) => {
    expect(transactionWebhookType(type, status)).toBe(webhookType);
  });
});

describe(currentWebhookType.name, () => {
  it("announces a renamed type under the API's name and leaves the others", () => {
    expect(currentWebhookType('INTERNAL_ACCOUNT.STATUS_CHANGE')).toBe('INTERNAL_ACCOUNT.STATUS_UPDATED');
    expect(currentWebhookType('CARD.STATE_CHANGE')).toBe('CARD.STATE_CHANGE');
    expect(currentWebhookType('CARD_TRANSACTION.CONFIRMED')).toBe('CARD_TRANSACTION.AUTHORIZED');
    expect(currentWebhookType('CARD_TRANSACTION.PENDING')).toBe('CARD_TRANSACTION.PENDING');
  });
});
