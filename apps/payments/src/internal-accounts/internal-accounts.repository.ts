import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InternalAccountStatus, InternalAccountType } from '@paykit/contracts';
import { amountFromColumn, preparedStatement, ReadBatcher, returningRows, Statement } from '@paykit/persistence';
import { InternalAccountWithBalance } from './entities/internal-account.entity';

interface AccountRow {
  id: string;
  platform_id: string;
  customer_id: string | null;
  type: InternalAccountType;
  status: InternalAccountWithBalance['status'];
  currency_code: string;
  wallet_email: string | null;
  private_enabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  posted: string;
  held: string;
}

const ACCOUNT_COLUMNS = `a.id, a.platform_id, a.customer_id, a.type, a.status, a.currency_code, a.wallet_email, a.private_enabled,
  a.created_at, a.updated_at, l.posted, l.held`;
const SELECT_ACCOUNT = `SELECT ${ACCOUNT_COLUMNS} FROM internal_account a JOIN ledger_account l ON l.id = a.id`;

/** Accounts by (platform, id), one probe by primary key per key (as EntityReader's batches: whatever the statistics say). */
const SELECT_ACCOUNTS_BY_ID = preparedStatement(`SELECT ${ACCOUNT_COLUMNS} FROM unnest($1::text[], $2::text[]) AS k(platform_id, id)
  CROSS JOIN LATERAL (SELECT * FROM internal_account WHERE id = k.id LIMIT 1) a
  CROSS JOIN LATERAL (SELECT posted, held FROM ledger_account WHERE id = a.id LIMIT 1) l
  WHERE a.platform_id = k.platform_id`);

function toEntity(row: AccountRow): InternalAccountWithBalance {
  return {
    id: row.id,
    platformId: row.platform_id,
    customerId: row.customer_id,
    type: row.type,
    status: row.status,
    currencyCode: row.currency_code,
    walletEmail: row.wallet_email,
    privateEnabled: row.private_enabled,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    posted: amountFromColumn(row.posted),
    held: amountFromColumn(row.held),
  };
}

export interface AccountFilter {
  owner: 'CUSTOMER' | 'PLATFORM';
  customerId?: string;
  currency?: string;
  type?: InternalAccountType;
  /** Only ids below this one (the cursor: ids are time-ordered). */
  beforeId?: string;
  limit: number;
}

export interface NewInternalAccount {
  id: string;
  platformId: string;
  customerId: string | null;
  type: InternalAccountType;
  currencyCode: string;
  walletEmail: string | null;
}

/** Incoming transfers to internal account `a` that are accepted but not settled: each will still credit it. */
const INCOMING_IN_FLIGHT = `SELECT 1 FROM payment_transaction t
  WHERE t.platform_id = a.platform_id AND t.internal_account_id = a.id AND t.type = 'INCOMING' AND t.status IN ('PENDING', 'PROCESSING')`;

/** Every query takes the platform first: another platform's account does not exist here. */
@Injectable()
export class InternalAccountsRepository {
  /** Reads outside any transaction that arrive together (a payment's source, say) share one statement. */
  private readonly byId = new ReadBatcher<{ platformId: string; id: string }, AccountRow>({
    keyOf: (key) => `${key.platformId}|${key.id}`,
    read: async (keys) => {
      const rows = await this.dataSource.query<AccountRow[]>(SELECT_ACCOUNTS_BY_ID, [keys.map((key) => key.platformId), keys.map((key) => key.id)]);
      const found = new Map(rows.map((row) => [`${row.platform_id}|${row.id}`, row]));
      return keys.map((key) => found.get(`${key.platformId}|${key.id}`));
    },
  });

  constructor(private readonly dataSource: DataSource) {}

  /** The account with its balance: in the caller's transaction (`manager`), or batched with other reads outside one. */
  async findById(platformId: string, id: string, manager?: EntityManager): Promise<InternalAccountWithBalance | undefined> {
    if (!manager) {
      const row = await this.byId.load({ platformId, id });
      return row ? toEntity(row) : undefined;
    }
    const rows = await manager.query<AccountRow[]>(preparedStatement(`${SELECT_ACCOUNT} WHERE a.platform_id = $1 AND a.id = $2`), [platformId, id]);
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  async list(platformId: string, filter: AccountFilter): Promise<InternalAccountWithBalance[]> {
    const { where, params } = accountsWhere(platformId, filter);
    params.push(filter.limit);
    const rows = await this.dataSource.query<AccountRow[]>(`${SELECT_ACCOUNT} WHERE ${where} ORDER BY a.id DESC LIMIT $${params.length}`, params);
    return rows.map(toEntity);
  }

  /** How many accounts match the filter on all pages (the cursor and limit aside). */
  async count(platformId: string, filter: Omit<AccountFilter, 'beforeId' | 'limit'>): Promise<number> {
    const { where, params } = accountsWhere(platformId, filter);
    const rows = await this.dataSource.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM internal_account a WHERE ${where}`, params);
    return rows[0].count;
  }

  /**
   * Inserts accounts (of any owners of one or more platforms), each with its ledger holding
   * account, in one statement; an account its owner already has (same currency and type) is left
   * out. Answers the accounts inserted, with their (zero) balances.
   */
  async insertManyIfAbsent(manager: EntityManager, accounts: NewInternalAccount[]): Promise<InternalAccountWithBalance[]> {
    const rows = await manager.query<AccountRow[]>(
      preparedStatement(`WITH wanted AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY
           AS w(id, platform_id, customer_id, type, currency_code, wallet_email, ord)
       ), inserted AS (
         INSERT INTO internal_account (id, platform_id, customer_id, type, status, currency_code, wallet_email, private_enabled)
         SELECT w.id, w.platform_id, w.customer_id, w.type, 'ACTIVE', w.currency_code, w.wallet_email, false FROM wanted w ORDER BY w.ord
         ON CONFLICT ON CONSTRAINT uq_internal_account_owner DO NOTHING
         RETURNING id, platform_id, customer_id, type, status, currency_code, wallet_email, private_enabled, created_at, updated_at
       ), holding AS (
         INSERT INTO ledger_account (id, platform_id, currency_code, purpose, checked)
         SELECT id, platform_id, currency_code, 'HOLDING', true FROM inserted
         RETURNING id, posted, held
       )
       SELECT a.*, l.posted, l.held FROM inserted a JOIN holding l USING (id) ORDER BY a.id`),
      [
        accounts.map((account) => account.id),
        accounts.map((account) => account.platformId),
        accounts.map((account) => account.customerId),
        accounts.map((account) => account.type),
        accounts.map((account) => account.currencyCode),
        accounts.map((account) => account.walletEmail),
      ],
    );
    return rows.map(toEntity);
  }

  /**
   * The account's status, its row locked until the transaction ends: `share` for money
   * movements (they run side by side), `update` for a status change (it waits for the
   * movements under way, and later ones wait for it and then see the new status).
   */
  /** `lockStatus(..., 'share')` as a part of a CompositeStatement: the account's status, its row locked FOR SHARE. */
  lockStatusPart(platformId: string, id: string): Statement {
    return { sql: 'SELECT status FROM internal_account WHERE platform_id = $1 AND id = $2 FOR SHARE', params: [platformId, id] };
  }

  async lockStatus(manager: EntityManager, platformId: string, id: string, mode: 'share' | 'update'): Promise<InternalAccountStatus | undefined> {
    const rows = await manager.query<Array<{ status: InternalAccountStatus }>>(
      preparedStatement(`SELECT status FROM internal_account WHERE platform_id = $1 AND id = $2 ${mode === 'share' ? 'FOR SHARE' : 'FOR NO KEY UPDATE'}`),
      [platformId, id],
    );
    return rows[0]?.status;
  }

  /**
   * Moves the account to `to` when its status is one of `from` and, for CLOSED, when it is
   * empty: nothing posted or held and no incoming transfer still to credit it. One
   * conditional UPDATE, run after `lockStatus(..., 'update')` so that its emptiness check sees
   * every movement that committed before it; false when the account did not qualify.
   */
  async changeStatus(manager: EntityManager, platformId: string, id: string, from: readonly InternalAccountStatus[], to: InternalAccountStatus): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `UPDATE internal_account a SET status = $3, updated_at = now()
        WHERE a.platform_id = $1 AND a.id = $2 AND a.status = ANY ($4::text[])
          AND ($3 <> 'CLOSED' OR (
            NOT EXISTS (SELECT 1 FROM ledger_account l WHERE l.id = a.id AND (l.posted <> 0 OR l.held <> 0))
            AND NOT EXISTS (${INCOMING_IN_FLIGHT})))
        RETURNING a.id`,
      [platformId, id, to, from],
    );
    return rows.length > 0;
  }

  /** Whether an incoming transfer to the account is accepted but not yet settled (it will credit the account). */
  async hasIncomingTransferInFlight(manager: EntityManager, platformId: string, id: string): Promise<boolean> {
    const rows = await manager.query<Array<{ in_flight: boolean }>>(
      `SELECT EXISTS (${INCOMING_IN_FLIGHT}) AS in_flight FROM internal_account a WHERE a.platform_id = $1 AND a.id = $2`,
      [platformId, id],
    );
    return rows[0]?.in_flight === true;
  }

  /** Sets an embedded wallet's privacy; false when there is no such wallet on the platform. */
  async setPrivateEnabled(manager: EntityManager, platformId: string, id: string, privateEnabled: boolean): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `UPDATE internal_account SET private_enabled = $3, updated_at = now()
        WHERE platform_id = $1 AND id = $2 AND type = 'EMBEDDED_WALLET' RETURNING id`,
      [platformId, id, privateEnabled],
    );
    return rows.length > 0;
  }

  /** The customer's embedded wallets follow its email; the ids of those that changed. */
  async setWalletEmail(manager: EntityManager, platformId: string, customerId: string, email: string): Promise<string[]> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `UPDATE internal_account SET wallet_email = $3, updated_at = now()
        WHERE platform_id = $1 AND customer_id = $2 AND type = 'EMBEDDED_WALLET' AND wallet_email IS DISTINCT FROM $3 RETURNING id`,
      [platformId, customerId, email],
    );
    return rows.map((row) => row.id);
  }
}

/** The WHERE clause (on `internal_account a`) and its parameters for a filter. */
function accountsWhere(platformId: string, filter: Partial<AccountFilter>): { where: string; params: unknown[] } {
  const where = ['a.platform_id = $1', filter.owner === 'PLATFORM' ? 'a.customer_id IS NULL' : 'a.customer_id IS NOT NULL'];
  const params: unknown[] = [platformId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.customerId) add('a.customer_id = ?', filter.customerId);
  if (filter.currency) add('a.currency_code = ?', filter.currency);
  if (filter.type) add('a.type = ?', filter.type);
  if (filter.beforeId) add('a.id < ?', filter.beforeId);
  return { where: where.join(' AND '), params };
}
