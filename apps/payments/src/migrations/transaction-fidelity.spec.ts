import { DataSource } from 'typeorm';
import { serviceDataSourceOptions } from '@paykit/persistence';
import { RuntimeConfig } from '@paykit/runtime';
import { PAYMENTS_MIGRATIONS } from '.';
import { TransactionFidelity1764000000000 } from './1764000000000-TransactionFidelity';

/** Transactions stored before the migration keep working: their customer id stands in for the platform-side id. */
describe(TransactionFidelity1764000000000.name, () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    const config = { mode: 'embedded', embeddedDataDir: 'memory', sandboxTimeScale: 1 } as RuntimeConfig;
    const before = PAYMENTS_MIGRATIONS.filter((migration) => migration !== TransactionFidelity1764000000000);
    dataSource = new DataSource(serviceDataSourceOptions(config, { service: 'payments', entities: [], migrations: before }));
    await dataSource.initialize();
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('backfills platform_customer_id from customer_id and leaves the new payout fields empty', async () => {
    await dataSource.transaction(async (manager) => {
      for (const [id, customerId] of [
        ['InternalAccount:c', 'Customer:1'],
        ['InternalAccount:p', null],
      ] as const) {
        await manager.query(`INSERT INTO ledger_account (id, platform_id, currency_code, purpose, checked) VALUES ($1, 'Platform:1', 'USD', 'HOLDING', true)`, [id]);
        await manager.query(
          `INSERT INTO internal_account (id, platform_id, customer_id, type, status, currency_code) VALUES ($1, 'Platform:1', $2, 'INTERNAL_FIAT', 'ACTIVE', 'USD')`,
          [id, customerId],
        );
        await manager.query(
          `INSERT INTO payment_transaction (id, platform_id, type, status, customer_id, internal_account_id, external_account_id, currency_code, amount)
           VALUES ($1, 'Platform:1', 'OUTGOING', 'PENDING', $2, $3, 'ExternalAccount:1', 'USD', 100)`,
          [`Transaction:${id}`, customerId, id],
        );
      }
    });
    const runner = dataSource.createQueryRunner();
    try {
      await new TransactionFidelity1764000000000().up(runner);
    } finally {
      await runner.release();
    }
    const rows = await dataSource.query<Array<Record<string, unknown>>>(
      `SELECT id, platform_customer_id, payment_rail, rail_selection_mode, remittance_information, purpose_of_payment FROM payment_transaction ORDER BY id`,
    );
    expect(rows).toEqual([
      {
        id: 'Transaction:InternalAccount:c',
        platform_customer_id: 'Customer:1',
        payment_rail: null,
        rail_selection_mode: null,
        remittance_information: null,
        purpose_of_payment: null,
      },
      { id: 'Transaction:InternalAccount:p', platform_customer_id: null, payment_rail: null, rail_selection_mode: null, remittance_information: null, purpose_of_payment: null },
    ]);
    // The new checks hold from now on: remittance text is at most 80 characters.
    await expect(dataSource.query(`UPDATE payment_transaction SET remittance_information = repeat('x', 81)`)).rejects.toThrow(/ck_payment_transaction_remittance/);
  });
});
