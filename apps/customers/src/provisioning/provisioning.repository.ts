import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** A customer is ready once its accounts exist and its wallet, when it gets one, too. */
const READY = 'p.accounts_ready_at IS NOT NULL AND (NOT p.wallet_expected OR p.wallet_ready_at IS NOT NULL)';

export interface ProvisioningRow {
  accountsReadyAt: Date | null;
  walletExpected: boolean;
  walletReadyAt: Date | null;
}

/**
 * `customer_provisioning`: one row per customer, written by the events of payments and wallet-auth
 * in whatever order they arrive. Each write is one idempotent upsert: a redelivered event keeps
 * the first time it recorded, and a wallet once owed stays owed.
 */
@Injectable()
export class ProvisioningRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Customers' accounts exist (and whether a wallet follows), in one statement for a batch. */
  async recordAccounts(platformId: string, customers: Array<{ customerId: string; walletExpected: boolean }>): Promise<void> {
    // One row per customer (a statement may not upsert a row twice): a wallet owed by any of its events is owed.
    const owed = new Map<string, boolean>();
    for (const { customerId, walletExpected } of customers) owed.set(customerId, (owed.get(customerId) ?? false) || walletExpected);
    await this.dataSource.query(
      `INSERT INTO customer_provisioning AS p (platform_id, customer_id, accounts_ready_at, wallet_expected)
       SELECT $1, customer_id, now(), wallet_expected FROM unnest($2::text[], $3::boolean[]) AS r(customer_id, wallet_expected)
       ON CONFLICT (platform_id, customer_id) DO UPDATE
       SET accounts_ready_at = COALESCE(p.accounts_ready_at, EXCLUDED.accounts_ready_at), wallet_expected = p.wallet_expected OR EXCLUDED.wallet_expected`,
      [platformId, [...owed.keys()], [...owed.values()]],
    );
  }

  /** Customers' wallets are usable, in one statement for a batch. */
  async recordWallets(platformId: string, customerIds: string[]): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO customer_provisioning AS p (platform_id, customer_id, wallet_ready_at)
       SELECT $1, customer_id, now() FROM unnest($2::text[]) AS r(customer_id)
       ON CONFLICT (platform_id, customer_id) DO UPDATE SET wallet_ready_at = COALESCE(p.wallet_ready_at, EXCLUDED.wallet_ready_at)`,
      [platformId, [...new Set(customerIds)]],
    );
  }

  async find(platformId: string, customerId: string): Promise<ProvisioningRow | null> {
    const rows = await this.dataSource.query<Array<{ accounts_ready_at: Date | null; wallet_expected: boolean; wallet_ready_at: Date | null }>>(
      'SELECT accounts_ready_at, wallet_expected, wallet_ready_at FROM customer_provisioning WHERE platform_id = $1 AND customer_id = $2',
      [platformId, customerId],
    );
    if (rows.length === 0) return null;
    const [row] = rows;
    return { accountsReadyAt: toDate(row.accounts_ready_at), walletExpected: row.wallet_expected, walletReadyAt: toDate(row.wallet_ready_at) };
  }

  /** How many of a bulk import's customers are ready. */
  async countReadyOfJob(platformId: string, jobId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [row] = await manager.query<Array<{ ready: number }>>(
      `SELECT count(*)::int AS ready FROM customer c
       JOIN customer_provisioning p ON p.platform_id = c.platform_id AND p.customer_id = c.id
       WHERE c.platform_id = $1 AND c.bulk_import_job_id = $2 AND ${READY}`,
      [platformId, jobId],
    );
    return Number(row.ready);
  }
}

/** PGlite and node-postgres both answer timestamptz as Date; text is accepted too. */
function toDate(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}
