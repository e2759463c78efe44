import { DataSource } from 'typeorm';
import { Clock, serviceDataSourceOptions } from '@paykit/persistence';
import { RuntimeConfig } from '@paykit/runtime';
import { PAYMENTS_MIGRATIONS } from '../migrations';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';
import { NewTransaction, TransactionsRepository } from './transactions.repository';

const BASE: NewTransaction = {
  id: 'Transaction:0',
  platformId: 'Platform:1',
  type: 'OUTGOING',
  status: 'PENDING',
  customerId: 'Customer:1',
  platformCustomerId: 'user-1',
  internalAccountId: 'InternalAccount:1',
  externalAccountId: 'ExternalAccount:1',
  currencyCode: 'USD',
  amount: 10_001n,
  holdId: null,
  description: null,
  failureReason: null,
  paymentRail: 'SPEI',
  railSelectionMode: 'AUTO',
  remittanceInformation: null,
  purposeOfPayment: null,
};

/** Quotes write a transaction and its event in one statement, announcing `entityOf`: it must be exactly the row written. */
describe(TransactionsRepository.name, () => {
  let dataSource: DataSource;
  let repository: TransactionsRepository;

  beforeAll(async () => {
    const config = { mode: 'embedded', embeddedDataDir: 'memory', sandboxTimeScale: 1 } as RuntimeConfig;
    dataSource = new DataSource(serviceDataSourceOptions(config, { service: 'payments', entities: [PaymentTransactionEntity], migrations: PAYMENTS_MIGRATIONS }));
    await dataSource.initialize();
    repository = new TransactionsRepository(dataSource, new Clock(dataSource));
    // The account the transactions are recorded against (a foreign key).
    await dataSource.query(`INSERT INTO ledger_account (id, platform_id, currency_code, purpose, checked) VALUES ('InternalAccount:1', 'Platform:1', 'USD', 'HOLDING', true)`);
    await dataSource.query(
      `INSERT INTO internal_account (id, platform_id, customer_id, type, status, currency_code) VALUES ('InternalAccount:1', 'Platform:1', 'Customer:1', 'INTERNAL_FIAT', 'ACTIVE', 'USD')`,
    );
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
  });

  describe('entityOf', () => {
    it.each<[string, Partial<NewTransaction>]>([
      ['a plain transfer', {}],
      [
        'a cross-currency payment with its fees',
        { quoteId: 'Quote:1', receivedCurrencyCode: 'MXN', receivedAmount: 168_515n, counterpartyUmaAddress: '$a@b.example', fees: 232n, platformFees: 81n },
      ],
      [
        'a failed one (settled at once) with counterparty information',
        { status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', counterpartyInformation: { FULL_NAME: 'Frida' } },
      ],
    ])('is the row the insert writes: %s', async (_what, changes) => {
      const tx = { ...BASE, ...changes, id: `Transaction:${Math.random()}` };
      const now = new Date('2026-01-02T03:04:05.678Z');
      const { sql, params } = repository.insertStatement(tx, now);
      await dataSource.query(sql, params);
      expect(await repository.findById(tx.platformId, tx.id)).toEqual(repository.entityOf(tx, now));
    });
  });
});
