import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentRail, PurposeOfPayment, RailSelectionMode, RefundReason, RefundStatus, TransactionStatus, TransactionStatusFilter, TransactionType } from '@paykit/contracts';
import { amountFromColumn, amountToColumn, Clock, preparedStatement, returningRows, Statement } from '@paykit/persistence';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';

interface TransactionRow {
  id: string;
  platform_id: string;
  type: TransactionType;
  status: TransactionStatus;
  customer_id: string | null;
  platform_customer_id: string | null;
  internal_account_id: string;
  external_account_id: string | null;
  quote_id: string | null;
  received_currency_code: string | null;
  received_amount: string | null;
  counterparty_uma_address: string | null;
  receipt_delivery_confirmed_at: Date | string | null;
  counterparty_information: Record<string, unknown> | string | null;
  fees: string | null;
  platform_fees: string | null;
  currency_code: string;
  amount: string;
  hold_id: string | null;
  description: string | null;
  failure_reason: string | null;
  payment_rail: PaymentRail | null;
  rail_selection_mode: RailSelectionMode | null;
  remittance_information: string | null;
  purpose_of_payment: PurposeOfPayment | null;
  crypto_network: string | null;
  onchain_transaction_hash: string | null;
  request_fingerprint: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  settled_at: Date | string | null;
  refund_reference: string | null;
  refund_status: RefundStatus | null;
  refund_reason: RefundReason | null;
  refund_initiated_at: Date | string | null;
  refund_settled_at: Date | string | null;
  returned_at: Date | string | null;
}

/** Every column of a transaction row (complete by its type), for reads that join a transaction to another table. */
const TRANSACTION_COLUMNS = Object.keys({
  id: 0,
  platform_id: 0,
  type: 0,
  status: 0,
  customer_id: 0,
  platform_customer_id: 0,
  internal_account_id: 0,
  external_account_id: 0,
  quote_id: 0,
  received_currency_code: 0,
  received_amount: 0,
  counterparty_uma_address: 0,
  receipt_delivery_confirmed_at: 0,
  counterparty_information: 0,
  fees: 0,
  platform_fees: 0,
  currency_code: 0,
  amount: 0,
  hold_id: 0,
  description: 0,
  failure_reason: 0,
  payment_rail: 0,
  rail_selection_mode: 0,
  remittance_information: 0,
  purpose_of_payment: 0,
  crypto_network: 0,
  onchain_transaction_hash: 0,
  request_fingerprint: 0,
  created_at: 0,
  updated_at: 0,
  settled_at: 0,
  refund_reference: 0,
  refund_status: 0,
  refund_reason: 0,
  refund_initiated_at: 0,
  refund_settled_at: 0,
  returned_at: 0,
} satisfies Record<keyof TransactionRow, 0>);

/** The select list of transaction `alias` in a join, each column named `t.<column>` so that none collides with the other table's. */
export function joinedTransactionColumns(alias: string): string {
  return TRANSACTION_COLUMNS.map((column) => `${alias}.${column} AS "t.${column}"`).join(', ');
}

/** The transaction of a row read with `joinedTransactionColumns`. */
export function joinedTransaction(row: object): PaymentTransactionEntity {
  const named = row as Record<string, unknown>;
  return toEntity(Object.fromEntries(TRANSACTION_COLUMNS.map((column) => [column, named[`t.${column}`]])) as unknown as TransactionRow);
}

function toEntity(row: TransactionRow): PaymentTransactionEntity {
  return {
    id: row.id,
    platformId: row.platform_id,
    type: row.type,
    status: row.status,
    customerId: row.customer_id,
    platformCustomerId: row.platform_customer_id,
    internalAccountId: row.internal_account_id,
    externalAccountId: row.external_account_id,
    currencyCode: row.currency_code,
    amount: amountFromColumn(row.amount),
    holdId: row.hold_id,
    description: row.description,
    failureReason: row.failure_reason,
    paymentRail: row.payment_rail,
    railSelectionMode: row.rail_selection_mode,
    remittanceInformation: row.remittance_information,
    purposeOfPayment: row.purpose_of_payment,
    cryptoNetwork: row.crypto_network,
    onChainTransactionHash: row.onchain_transaction_hash,
    requestFingerprint: row.request_fingerprint,

    quoteId: row.quote_id,
    receivedCurrencyCode: row.received_currency_code,
    receivedAmount: row.received_amount === null ? null : amountFromColumn(row.received_amount),
    counterpartyUmaAddress: row.counterparty_uma_address,
    receiptDeliveryConfirmedAt: row.receipt_delivery_confirmed_at === null ? null : new Date(row.receipt_delivery_confirmed_at),
    counterpartyInformation:
      typeof row.counterparty_information === 'string' ? (JSON.parse(row.counterparty_information) as Record<string, unknown>) : row.counterparty_information,
    fees: row.fees === null ? null : amountFromColumn(row.fees),
    platformFees: row.platform_fees === null ? null : amountFromColumn(row.platform_fees),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    settledAt: row.settled_at === null ? null : new Date(row.settled_at),
    refundReference: row.refund_reference,
    refundStatus: row.refund_status,
    refundReason: row.refund_reason,
    refundInitiatedAt: row.refund_initiated_at === null ? null : new Date(row.refund_initiated_at),
    refundSettledAt: row.refund_settled_at === null ? null : new Date(row.refund_settled_at),
    returnedAt: row.returned_at === null || row.returned_at === undefined ? null : new Date(row.returned_at),
  };
}

export interface TransactionFilter {
  /** Each must be the source or the destination. */
  accountIds?: string[];
  senderAccountId?: string;
  receiverAccountId?: string;
  /** A customer's transactions, or those of the platform's own accounts. */
  owner?: { customerId: string } | { platform: true };
  platformCustomerId?: string;
  status?: TransactionStatusFilter;
  type?: TransactionType;
  /** Remittance information or description equal to this. */
  reference?: string;
  createdFrom?: Date;
  createdBefore?: Date;
  createdUntil?: Date;
  /** Oldest first (the cursor is then the last id seen, and the page continues after it). */
  ascending?: boolean;
  afterCursorId?: string;
  limit: number;
}

/** Cross-currency payments' own columns; a same-currency transfer leaves them out. */
type CrossCurrencyColumns =
  'quoteId' | 'receivedCurrencyCode' | 'receivedAmount' | 'counterpartyUmaAddress' | 'receiptDeliveryConfirmedAt' | 'counterpartyInformation' | 'fees' | 'platformFees';
/** A payout to a wallet: the network and hash of its on-chain leg. */
type OnChainColumns = 'cryptoNetwork' | 'onChainTransactionHash';
/** A refund is initiated after the transaction exists (`refundStatement`), never with it. */
type RefundColumns = 'refundReference' | 'refundStatus' | 'refundReason' | 'refundInitiatedAt' | 'refundSettledAt' | 'returnedAt';
/** A transfer requested without an Idempotency-Key: its request's fingerprint (`findByFingerprint`). */
type FingerprintColumns = 'requestFingerprint';
export type NewTransaction = Omit<PaymentTransactionEntity, 'createdAt' | 'updatedAt' | 'settledAt' | CrossCurrencyColumns | OnChainColumns | RefundColumns | FingerprintColumns> &
  Partial<Pick<PaymentTransactionEntity, CrossCurrencyColumns | OnChainColumns | FingerprintColumns>>;

const INSERT_TRANSACTION = `INSERT INTO payment_transaction (id, platform_id, type, status, customer_id, internal_account_id, external_account_id, currency_code, amount, hold_id, description, failure_reason,
     platform_customer_id, payment_rail, rail_selection_mode, remittance_information, purpose_of_payment,
     quote_id, received_currency_code, received_amount, counterparty_uma_address, counterparty_information, settled_at, crypto_network, onchain_transaction_hash, created_at, updated_at,
     fees, platform_fees, request_fingerprint)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22::jsonb, CASE WHEN $4 IN ('COMPLETED', 'FAILED') THEN $25::timestamptz END, $23, $24, $25, $25,
     $26, $27, $28)`;

const TRANSITION_TRANSACTION = `UPDATE payment_transaction SET status = $4, failure_reason = $5, updated_at = $6,
       settled_at = CASE WHEN $4 IN ('COMPLETED', 'FAILED') THEN $6 ELSE settled_at END,
       returned_at = CASE WHEN $3::text = 'COMPLETED' AND $4::text = 'FAILED' THEN $6 ELSE returned_at END
 WHERE platform_id = $1 AND id = $2 AND status = $3`;

/**
 * A refund entering status $5 on a transaction in status $3 whose refund is in status $4 (null:
 * none yet). The reference, reason and start are set by the first move and kept after; a refund
 * that ended (COMPLETED or FAILED) is settled at $8.
 */
const REFUND_TRANSITION = `UPDATE payment_transaction SET refund_status = $5::text, refund_reference = coalesce(refund_reference, $6::text),
       refund_reason = coalesce(refund_reason, $7::text), refund_initiated_at = coalesce(refund_initiated_at, $8::timestamptz),
       refund_settled_at = CASE WHEN $5::text = 'PENDING' THEN NULL ELSE $8::timestamptz END, updated_at = $8::timestamptz
 WHERE platform_id = $1 AND id = $2 AND status = $3 AND refund_status IS NOT DISTINCT FROM $4::text`;

/** What a refund's move is: from the refund's status (null: none yet) to the next, with the reason it was initiated for. */
export interface RefundMove {
  from: RefundStatus | null;
  to: RefundStatus;
  reason: RefundReason;
}

/** The reference of a transaction's refund: derived from its id, the same on every retry. */
export function refundReference(transactionId: string): string {
  return `REFUND-${transactionId
    .replace(/^Transaction:/, '')
    .replace(/-/g, '')
    .slice(-12)
    .toUpperCase()}`;
}

/** The optional columns a new transaction gives (an undefined one is the column's null). */
function definedOnly(tx: NewTransaction): NewTransaction {
  return Object.fromEntries(Object.entries(tx).filter(([, value]) => value !== undefined)) as NewTransaction;
}

/** Transactions, always scoped by platform. Status changes are conditional on the status they leave. */
@Injectable()
export class TransactionsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async insert(manager: EntityManager, tx: NewTransaction): Promise<PaymentTransactionEntity> {
    const { sql, params } = this.insertStatement(tx, this.clock.now());
    const rows = await returningRows<TransactionRow>(manager, preparedStatement(`${sql} RETURNING *`), params);
    return toEntity(rows[0]);
  }

  /**
   * The INSERT of a new transaction at `now` (no RETURNING), for a caller that writes it in one
   * statement with its event (`Outbox.addWithChange`); `entityOf` is the row it writes.
   */
  insertStatement(tx: NewTransaction, now: Date): { sql: string; params: unknown[] } {
    return {
      sql: INSERT_TRANSACTION,
      params: [
        tx.id,
        tx.platformId,
        tx.type,
        tx.status,
        tx.customerId,
        tx.internalAccountId,
        tx.externalAccountId,
        tx.currencyCode,
        amountToColumn(tx.amount),
        tx.holdId,
        tx.description,
        tx.failureReason,
        tx.platformCustomerId,
        tx.paymentRail,
        tx.railSelectionMode,
        tx.remittanceInformation,
        tx.purposeOfPayment,
        tx.quoteId ?? null,
        tx.receivedCurrencyCode ?? null,
        tx.receivedAmount === undefined || tx.receivedAmount === null ? null : amountToColumn(tx.receivedAmount),
        tx.counterpartyUmaAddress ?? null,
        tx.counterpartyInformation ? JSON.stringify(tx.counterpartyInformation) : null,
        tx.cryptoNetwork ?? null,
        tx.onChainTransactionHash ?? null,
        now,
        tx.fees === undefined || tx.fees === null ? null : amountToColumn(tx.fees),
        tx.platformFees === undefined || tx.platformFees === null ? null : amountToColumn(tx.platformFees),
        tx.requestFingerprint ?? null,
      ],
    };
  }

  /** The row `insertStatement(tx, now)` writes, as the entity a read would answer. */
  entityOf(tx: NewTransaction, now: Date): PaymentTransactionEntity {
    return {
      quoteId: null,
      receivedCurrencyCode: null,
      receivedAmount: null,
      counterpartyUmaAddress: null,
      counterpartyInformation: null,
      fees: null,
      platformFees: null,
      cryptoNetwork: null,
      onChainTransactionHash: null,
      requestFingerprint: null,
      ...definedOnly(tx),
      receiptDeliveryConfirmedAt: null,
      refundReference: null,
      refundStatus: null,
      refundReason: null,
      refundInitiatedAt: null,
      refundSettledAt: null,
      returnedAt: null,
      createdAt: now,
      updatedAt: now,
      settledAt: tx.status === 'COMPLETED' || tx.status === 'FAILED' ? now : null,
    };
  }

  async findById(platformId: string, id: string, manager: EntityManager = this.dataSource.manager, forUpdate = false): Promise<PaymentTransactionEntity | undefined> {
    const rows = await manager.query<TransactionRow[]>(`SELECT * FROM payment_transaction WHERE platform_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [platformId, id]);
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /**
   * The most recent transaction of the platform written with this request fingerprint at or after
   * `since` (platform time), read in the caller's transaction when it gives one.
   */
  async findByFingerprint(platformId: string, fingerprint: string, since: Date, manager: EntityManager = this.dataSource.manager): Promise<PaymentTransactionEntity | undefined> {
    const rows = await manager.query<TransactionRow[]>(
      preparedStatement('SELECT * FROM payment_transaction WHERE platform_id = $1 AND request_fingerprint = $2 AND created_at >= $3 ORDER BY created_at DESC, id DESC LIMIT 1'),
      [platformId, fingerprint, since],
    );
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  async transition(
    manager: EntityManager,
    platformId: string,
    id: string,
    from: TransactionStatus,
    to: TransactionStatus,
    failureReason: string | null,
  ): Promise<PaymentTransactionEntity | undefined> {
    const { sql, params } = this.transitionStatement(platformId, id, from, to, failureReason, this.clock.now());
    const rows = await returningRows<TransactionRow>(manager, preparedStatement(`${sql} RETURNING *`), params);
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /**
   * The conditional status change `from` -> `to` at `now` (no RETURNING), for a caller that writes
   * it in one statement with its event (`Outbox.addWithChange`); `transitioned` is the row it leaves.
   */
  transitionStatement(platformId: string, id: string, from: TransactionStatus, to: TransactionStatus, failureReason: string | null, now: Date): Statement {
    return { sql: TRANSITION_TRANSACTION, params: [platformId, id, from, to, failureReason, now] };
  }

  /** The row `transitionStatement(…, to, failureReason, now)` leaves of `transaction`. */
  transitioned(transaction: PaymentTransactionEntity, to: TransactionStatus, failureReason: string | null, now: Date): PaymentTransactionEntity {
    return {
      ...transaction,
      status: to,
      failureReason,
      updatedAt: now,
      settledAt: to === 'COMPLETED' || to === 'FAILED' ? now : transaction.settledAt,
      // A payout that had completed and fails was returned by the receiving bank.
      returnedAt: transaction.status === 'COMPLETED' && to === 'FAILED' ? now : transaction.returnedAt,
    };
  }

  /**
   * The conditional move of a transaction's refund (no RETURNING), on a transaction still in
   * `status`: nothing changes when the refund is no longer in `move.from` (a retried step or
   * cancellation), so a caller refuses its statement when the change wrote no row.
   */
  refundStatement(platformId: string, id: string, status: TransactionStatus, move: RefundMove, now: Date): Statement {
    return { sql: REFUND_TRANSITION, params: [platformId, id, status, move.from, move.to, refundReference(id), move.reason, now] };
  }

  /** The row `refundStatement(…, move, now)` leaves of `transaction`. */
  refundMoved(transaction: PaymentTransactionEntity, move: RefundMove, now: Date): PaymentTransactionEntity {
    return {
      ...transaction,
      refundStatus: move.to,
      refundReference: transaction.refundReference ?? refundReference(transaction.id),
      refundReason: transaction.refundReason ?? move.reason,
      refundInitiatedAt: transaction.refundInitiatedAt ?? now,
      refundSettledAt: move.to === 'PENDING' ? null : now,
      updatedAt: now,
    };
  }

  /** `refundStatement` in the caller's transaction: the row it leaves, or undefined when the refund was not in `move.from`. */
  async moveRefund(manager: EntityManager, platformId: string, id: string, status: TransactionStatus, move: RefundMove): Promise<PaymentTransactionEntity | undefined> {
    const { sql, params } = this.refundStatement(platformId, id, status, move, this.clock.now());
    const rows = await returningRows<TransactionRow>(manager, preparedStatement(`${sql} RETURNING *`), params);
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /** Records (or moves) the receipt delivery confirmation time. */
  async confirmReceipt(platformId: string, id: string, at: Date): Promise<PaymentTransactionEntity | undefined> {
    const rows = await returningRows<TransactionRow>(
      this.dataSource.manager,
      `UPDATE payment_transaction SET receipt_delivery_confirmed_at = $3, updated_at = now() WHERE platform_id = $1 AND id = $2 RETURNING *`,
      [platformId, id, at],
    );
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  async list(platformId: string, filter: TransactionFilter): Promise<PaymentTransactionEntity[]> {
    const { where, params } = transactionsWhere(platformId, filter);
    params.push(filter.limit);
    const rows = await this.dataSource.query<TransactionRow[]>(
      `SELECT * FROM payment_transaction WHERE ${where} ORDER BY id ${filter.ascending ? 'ASC' : 'DESC'} LIMIT $${params.length}`,
      params,
    );
    return rows.map(toEntity);
  }

  /** How many transactions match the filter on all pages (the cursor, order and limit aside). */
  async count(platformId: string, filter: Omit<TransactionFilter, 'afterCursorId' | 'ascending' | 'limit'>): Promise<number> {
    const { where, params } = transactionsWhere(platformId, filter);
    const rows = await this.dataSource.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM payment_transaction WHERE ${where}`, params);
    return rows[0].count;
  }

  /**
   * Count and amount of a customer's transfers in a currency over the last 24 hours, taken
   * under a lock on the customer's limit row so concurrent transfers are counted one by one.
   * An agent's transfer waiting for approval counts only once approved (it moves nothing before).
   * Undefined when the customer has no limit in that currency.
   */
  async lockVelocity(
    manager: EntityManager,
    platformId: string,
    customerId: string,
    currency: string,
  ): Promise<{ maxCount: number | null; maxAmount: bigint | null; count: number; amount: bigint } | undefined> {
    const limits = await manager.query<Array<{ max_count_per_day: number | null; max_amount_per_day: string | null }>>(
      `SELECT max_count_per_day, max_amount_per_day FROM velocity_limit WHERE platform_id = $1 AND customer_id = $2 AND currency_code = $3 FOR UPDATE`,
      [platformId, customerId, currency],
    );
    if (limits.length === 0) return undefined;
    const usage = await manager.query<Array<{ count: number; amount: string }>>(
      `SELECT count(*)::int AS count, coalesce(sum(amount), 0)::text AS amount FROM payment_transaction
        WHERE platform_id = $1 AND customer_id = $2 AND currency_code = $3 AND status <> 'FAILED' AND created_at > now() - interval '1 day'
          AND NOT EXISTS (SELECT 1 FROM agent_action a WHERE a.transaction_id = payment_transaction.id AND a.status = 'PENDING_APPROVAL')`,
      [platformId, customerId, currency],
    );
    return {
      maxCount: limits[0].max_count_per_day,
      maxAmount: limits[0].max_amount_per_day === null ? null : amountFromColumn(limits[0].max_amount_per_day),
      count: Number(usage[0].count),
      amount: amountFromColumn(usage[0].amount),
    };
  }

  /** The hold an approved transfer placed when it was approved (it waited holding nothing). */
  async setHold(manager: EntityManager, platformId: string, id: string, holdId: string): Promise<void> {
    await manager.query(`UPDATE payment_transaction SET hold_id = $3 WHERE platform_id = $1 AND id = $2 AND hold_id IS NULL`, [platformId, id, holdId]);
  }

  /**
   * Adds `amount` to the platform's volume of `day` in `currency` under a lock on its limit row,
   * unless it would pass the limit. Undefined when no limit is set; else whether it was added,
   * with the limit and what was left before.
   */
  async reserveDailyVolume(
    manager: EntityManager,
    platformId: string,
    currency: string,
    day: string,
    amount: bigint,
  ): Promise<{ added: boolean; limit: bigint; remaining: bigint } | undefined> {
    const rows = await manager.query<Array<{ limit_amount: string; day: string; used: string }>>(
      `SELECT limit_amount::text, day, used::text FROM daily_volume_limit WHERE platform_id = $1 AND currency_code = $2 FOR UPDATE`,
      [platformId, currency],
    );
    if (rows.length === 0) return undefined;
    const limit = amountFromColumn(rows[0].limit_amount);
    const used = rows[0].day === day ? amountFromColumn(rows[0].used) : 0n;
    const remaining = limit > used ? limit - used : 0n;
    if (amount > remaining) return { added: false, limit, remaining };
    await manager.query(`UPDATE daily_volume_limit SET day = $3, used = $4 WHERE platform_id = $1 AND currency_code = $2`, [
      platformId,
      currency,
      day,
      amountToColumn(used + amount),
    ]);
    return { added: true, limit, remaining };
  }

  /** Gives back a reservation of `day` whose payment did not go ahead (a later day's total is left alone). */
  async releaseDailyVolume(manager: EntityManager, platformId: string, currency: string, day: string, amount: bigint): Promise<void> {
    await manager.query(`UPDATE daily_volume_limit SET used = GREATEST(used - $4, 0) WHERE platform_id = $1 AND currency_code = $2 AND day = $3`, [
      platformId,
      currency,
      day,
      amountToColumn(amount),
    ]);
  }

  async setDailyVolumeLimit(platformId: string, currency: string, maxAmount: bigint | null): Promise<void> {
    if (maxAmount === null) {
      await this.dataSource.query(`DELETE FROM daily_volume_limit WHERE platform_id = $1 AND currency_code = $2`, [platformId, currency]);
      return;
    }
    await this.dataSource.query(
      `INSERT INTO daily_volume_limit (platform_id, currency_code, limit_amount) VALUES ($1, $2, $3)
       ON CONFLICT (platform_id, currency_code) DO UPDATE SET limit_amount = $3, updated_at = now()`,
      [platformId, currency, amountToColumn(maxAmount)],
    );
  }

  async setVelocityLimit(platformId: string, customerId: string, currency: string, maxCount: number | null, maxAmount: bigint | null): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO velocity_limit (platform_id, customer_id, currency_code, max_count_per_day, max_amount_per_day) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (platform_id, customer_id, currency_code) DO UPDATE SET max_count_per_day = $4, max_amount_per_day = $5, updated_at = now()`,
      [platformId, customerId, currency, maxCount, maxAmount === null ? null : amountToColumn(maxAmount)],
    );
  }
}

/** The WHERE clause (on `payment_transaction`) and its parameters for a filter. */
function transactionsWhere(platformId: string, filter: Partial<TransactionFilter>): { where: string; params: unknown[] } {
  const where = ['platform_id = $1'];
  const params: unknown[] = [platformId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace(/\?/g, `$${params.length}`));
  };
  for (const accountId of filter.accountIds ?? []) add('(internal_account_id = ? OR external_account_id = ?)', accountId);
  // The sender is the internal account of an OUTGOING transfer, the external one of an INCOMING one.
  if (filter.senderAccountId) add(`(CASE WHEN type = 'OUTGOING' THEN internal_account_id ELSE external_account_id END) = ?`, filter.senderAccountId);
  if (filter.receiverAccountId) add(`(CASE WHEN type = 'OUTGOING' THEN external_account_id ELSE internal_account_id END) = ?`, filter.receiverAccountId);
  if (filter.owner && 'platform' in filter.owner) where.push('customer_id IS NULL');
  else if (filter.owner) add('customer_id = ?', filter.owner.customerId);
  if (filter.platformCustomerId) add('platform_customer_id = ?', filter.platformCustomerId);
  if (filter.status) add('status = ?', filter.status);
  if (filter.type) add('type = ?', filter.type);
  if (filter.reference) add('(remittance_information = ? OR description = ?)', filter.reference);
  if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
  if (filter.createdBefore) add('created_at < ?', filter.createdBefore);
  if (filter.createdUntil) add('created_at <= ?', filter.createdUntil);
  if (filter.afterCursorId) add(filter.ascending ? 'id > ?' : 'id < ?', filter.afterCursorId);
  return { where: where.join(' AND '), params };
}
