import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { RefundReason, RefundStatus, TransactionStatus, TransactionStatusFilter, TransactionType } from '@paykit/contracts';
import { amountToColumn, Clock, preparedStatement, returningRows, Statement } from '@paykit/persistence';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';
import { toEntity, TransactionRow } from './transaction-row';

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

  /** The hold an approved transfer placed when it was approved (it waited holding nothing). */
  async setHold(manager: EntityManager, platformId: string, id: string, holdId: string): Promise<void> {
    await manager.query(`UPDATE payment_transaction SET hold_id = $3 WHERE platform_id = $1 AND id = $2 AND hold_id IS NULL`, [platformId, id, holdId]);
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
