import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { QuoteFailureReason, QuoteStatus } from '@paykit/contracts';
import { amountFromColumn, amountToColumn, CompositeStatement, preparedStatement, returningRows, Statement } from '@paykit/persistence';
import { NEW_MOVEMENT_STATUSES } from '../ledger/ledger.service';
import { refuseWhen } from '../refused-statement';
import { PaymentTransactionEntity } from '../transfers/entities/payment-transaction.entity';
import { joinedTransaction, joinedTransactionColumns } from '../transfers/transaction-row';
import { QuoteEntity } from './entities/quote.entity';

export interface QuoteRow {
  id: string;
  platform_id: string;
  status: QuoteEntity['status'];
  source_type: QuoteEntity['sourceType'];
  source_account_id: string | null;
  funding_account_id: string | null;
  customer_id: string | null;
  source_currency: string;
  crypto_network: string | null;
  destination_type: QuoteEntity['destinationType'];
  destination_kind: QuoteEntity['destinationKind'];
  destination_account_id: string | null;
  destination_uma_address: string | null;
  destination_currency: string;
  payment_rail: QuoteEntity['paymentRail'];
  locked_side: QuoteEntity['lockedSide'];
  sending_amount: string;
  receiving_amount: string;
  service_fee: string;
  platform_fee: string;
  rate_micros: string;
  fixed_fee: string;
  variable_fee_bps: number;
  transaction_id: string;
  sandbox_outcome: string | null;
  funding_reference: string | null;
  description: string | null;
  extra: QuoteEntity['extra'] | string;
  request_fingerprint: string | null;
  failure_reason: QuoteFailureReason | null;
  created_at: Date | string;
  updated_at: Date | string;
  expires_at: Date | string;
  executed_at: Date | string | null;
}

function toEntity(row: QuoteRow): QuoteEntity {
  return {
    id: row.id,
    platformId: row.platform_id,
    status: row.status,
    sourceType: row.source_type,
    sourceAccountId: row.source_account_id,
    fundingAccountId: row.funding_account_id,
    customerId: row.customer_id,
    sourceCurrency: row.source_currency,
    cryptoNetwork: row.crypto_network,
    destinationType: row.destination_type,
    destinationKind: row.destination_kind,
    destinationAccountId: row.destination_account_id,
    destinationUmaAddress: row.destination_uma_address,
    destinationCurrency: row.destination_currency,
    paymentRail: row.payment_rail,
    lockedSide: row.locked_side,
    sendingAmount: amountFromColumn(row.sending_amount),
    receivingAmount: amountFromColumn(row.receiving_amount),
    serviceFee: amountFromColumn(row.service_fee),
    platformFee: amountFromColumn(row.platform_fee),
    rateMicros: amountFromColumn(row.rate_micros),
    fixedFee: amountFromColumn(row.fixed_fee),
    variableFeeBps: Number(row.variable_fee_bps),
    transactionId: row.transaction_id,
    sandboxOutcome: row.sandbox_outcome,
    fundingReference: row.funding_reference,
    description: row.description,
    extra: typeof row.extra === 'string' ? (JSON.parse(row.extra) as QuoteEntity['extra']) : row.extra,
    requestFingerprint: row.request_fingerprint ?? null,
    failureReason: row.failure_reason,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    expiresAt: new Date(row.expires_at),
    executedAt: row.executed_at === null ? null : new Date(row.executed_at),
  };
}

/** A keyless quote executed at its creation carries its request's fingerprint (`requestFingerprint`). */
export type NewQuote = Omit<QuoteEntity, 'status' | 'failureReason' | 'updatedAt' | 'executedAt' | 'requestFingerprint'> & Partial<Pick<QuoteEntity, 'requestFingerprint'>>;

// Quotes and their transactions, one probe by primary key per quote, in the keys' order. The
// transaction is probed by its primary key alone (a LATERAL with LIMIT keeps the planner from
// turning it back into a join): as a join on (platform, id), a plan made while the platform had a
// few transactions read all of the platform's transactions for every step, slower with each payment.
const FIND_WITH_TRANSACTIONS_LOCKED = preparedStatement(`SELECT q.*, ${joinedTransactionColumns('t')} FROM unnest($1::text[], $2::text[]) AS k(platform_id, id)
   CROSS JOIN LATERAL (SELECT * FROM quote WHERE id = k.id LIMIT 1) q
   CROSS JOIN LATERAL (SELECT * FROM payment_transaction WHERE id = q.transaction_id LIMIT 1 FOR UPDATE) t
   WHERE q.platform_id = k.platform_id AND t.platform_id = q.platform_id`);

/** A quote and its transaction, as a scheduled step reads them. */
export interface QuoteWithTransaction {
  quote: QuoteEntity;
  transaction: PaymentTransactionEntity;
}

/**
 * A new quote's row; an executing one starts PROCESSING, stamped executed at its creation. Both
 * prepared: a single-row insert on the hot path of every payment.
 */
function insertQuoteSql(status: 'PENDING' | 'PENDING_AUTHORIZATION' | 'PROCESSING'): string {
  return `INSERT INTO quote (id, platform_id, status, source_type, source_account_id, customer_id, source_currency, crypto_network, destination_type, destination_kind,
         destination_account_id, destination_uma_address, destination_currency, payment_rail, locked_side, sending_amount, receiving_amount, service_fee, platform_fee,
         rate_micros, fixed_fee, variable_fee_bps, transaction_id, sandbox_outcome, funding_reference, description, extra, created_at, updated_at, expires_at, funding_account_id,
         executed_at, request_fingerprint)
       VALUES ($1, $2, '${status}', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26::jsonb, $27, $27, $28, $29,
         ${status === 'PROCESSING' ? '$27' : 'NULL'}, $30)
       RETURNING *`;
}
const INSERT_PENDING = insertQuoteSql('PENDING');
const INSERT_EXECUTING = insertQuoteSql('PROCESSING');
/** A real-time funded quote of an SCA-regulated customer: its funding challenge comes with it. */
const INSERT_AWAITING_AUTHORIZATION = insertQuoteSql('PENDING_AUTHORIZATION');
/** PENDING -> PROCESSING while the lock holds: the one conditional update that lets a quote execute once, however many executions race. */
const BEGIN_EXECUTION = `UPDATE quote SET status = 'PROCESSING', executed_at = $3, updated_at = $3
  WHERE platform_id = $1 AND id = $2 AND status = 'PENDING' AND expires_at > $3 RETURNING *`;

/** An execution's guard: its quote moved (or was inserted); else the statement is refused (QUOTE_NOT_EXECUTABLE). */
export const QUOTE_MOVED_GUARD = refuseWhen('NOT EXISTS (SELECT 1 FROM quote)', 'QUOTE_NOT_EXECUTABLE');
/** A step's guard: its transaction moved from the status read under the lock; else nothing of the step commits. */
export const TRANSACTION_CHANGED_GUARD = refuseWhen('NOT EXISTS (SELECT 1 FROM change)', 'TRANSACTION_CHANGED_CONCURRENTLY');
/**
 * The condition (over the `source` part: the source account's status read under its lock) that the
 * source account may still move money, and the guard refusing the execution when it may not.
 */
export const SOURCE_MOVABLE = `EXISTS (SELECT 1 FROM source WHERE status IN (${NEW_MOVEMENT_STATUSES.map((status) => `'${status}'`).join(', ')}))`;
export const SOURCE_MOVABLE_GUARD = refuseWhen(`NOT ${SOURCE_MOVABLE}`, 'ACCOUNT_NOT_ACTIVE', '(SELECT status FROM source)');

/** Quotes, always scoped by platform. Status changes are conditional on the status they leave. */
@Injectable()
export class QuotesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A new quote, PENDING, with the changes that come with it (its expiry job) in the same
   * statement: atomic alone, so it needs no transaction of its own. An execution inserts its
   * quote with `executionPart`.
   */
  async insert(manager: EntityManager, quote: NewQuote, alongside: Statement[] = [], awaitingAuthorization = false): Promise<QuoteEntity> {
    const statement = new CompositeStatement().add('quote', { sql: awaitingAuthorization ? INSERT_AWAITING_AUTHORIZATION : INSERT_PENDING, params: this.insertParams(quote) });
    alongside.forEach((part, i) => statement.add(`alongside_${i}`, part));
    const { sql, params } = statement.end({ sql: 'SELECT * FROM quote', params: [] });
    const rows = await returningRows<QuoteRow>(manager, preparedStatement(sql), params);
    return toEntity(rows[0]);
  }

  /**
   * An execution's move of its quote to PROCESSING, as the part of a CompositeStatement that
   * RETURNS the quote's row (none: it cannot execute): a new quote's insert, stamped executed at
   * its creation, or an existing quote's PENDING -> PROCESSING at `now`, unexpired.
   */
  executionPart(quote: NewQuote, existing: boolean, now: Date): Statement {
    return existing ? { sql: BEGIN_EXECUTION, params: [quote.platformId, quote.id, now] } : { sql: INSERT_EXECUTING, params: this.insertParams(quote) };
  }

  /** The quote's row as an execution's statement returned it. */
  executed(row: QuoteRow): QuoteEntity {
    return toEntity(row);
  }

  /**
   * Runs an execution composed of `statement`'s parts (one with the quote's row named `quote`) as
   * one statement, refused as a whole when one of `guards` holds: the quote as executed.
   */
  async runExecution(manager: EntityManager, statement: CompositeStatement, guards: string[]): Promise<QuoteEntity> {
    const { sql, params } = statement.end({ sql: `SELECT q.*, CASE ${guards.join(' ')} ELSE true END AS executed FROM (SELECT 1) one LEFT JOIN quote q ON true`, params: [] });
    const [row] = await manager.query<QuoteRow[]>(preparedStatement(sql), params);
    return toEntity(row);
  }

  /** Runs the quote's move of an execution the sandbox fails: the quote as moved, undefined when it could not move. */
  async startExecution(manager: EntityManager, statement: CompositeStatement): Promise<QuoteEntity | undefined> {
    const { sql, params } = statement.end({ sql: 'SELECT * FROM quote', params: [] });
    const [row] = await manager.query<QuoteRow[]>(preparedStatement(sql), params);
    return row ? toEntity(row) : undefined;
  }

  /** Runs `statement`'s parts as one statement, refused as a whole when one of `guards` holds (none: it always runs). */
  async runComposed(manager: EntityManager, statement: CompositeStatement, guards: string[] = []): Promise<void> {
    const { sql, params } = statement.end({ sql: guards.length > 0 ? `SELECT CASE ${guards.join(' ')} ELSE true END AS advanced` : 'SELECT 1', params: [] });
    await manager.query(preparedStatement(sql), params);
  }

  private insertParams(quote: NewQuote): unknown[] {
    return [
      quote.id,
      quote.platformId,
      quote.sourceType,
      quote.sourceAccountId,
      quote.customerId,
      quote.sourceCurrency,
      quote.cryptoNetwork,
      quote.destinationType,
      quote.destinationKind,
      quote.destinationAccountId,
      quote.destinationUmaAddress,
      quote.destinationCurrency,
      quote.paymentRail,
      quote.lockedSide,
      amountToColumn(quote.sendingAmount),
      amountToColumn(quote.receivingAmount),
      amountToColumn(quote.serviceFee),
      amountToColumn(quote.platformFee),
      amountToColumn(quote.rateMicros),
      amountToColumn(quote.fixedFee),
      quote.variableFeeBps,
      quote.transactionId,
      quote.sandboxOutcome,
      quote.fundingReference,
      quote.description,
      JSON.stringify(quote.extra),
      quote.createdAt,
      quote.expiresAt,
      quote.fundingAccountId,
      quote.requestFingerprint ?? null,
    ];
  }

  async findById(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<QuoteEntity | undefined> {
    const rows = await manager.query<QuoteRow[]>(preparedStatement(`SELECT * FROM quote WHERE platform_id = $1 AND id = $2`), [platformId, id]);
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /**
   * The most recent quote of the platform with this request fingerprint created at or after
   * `since` (platform time), read in the caller's transaction when it gives one.
   */
  async findByFingerprint(platformId: string, fingerprint: string, since: Date, manager: EntityManager = this.dataSource.manager): Promise<QuoteEntity | undefined> {
    const rows = await manager.query<QuoteRow[]>(
      preparedStatement('SELECT * FROM quote WHERE platform_id = $1 AND request_fingerprint = $2 AND created_at >= $3 ORDER BY created_at DESC, id DESC LIMIT 1'),
      [platformId, fingerprint, since],
    );
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /** Writes (or, with null, clears) the fingerprint of the request an agent's quote was submitted by. */
  async setFingerprint(manager: EntityManager | undefined, platformId: string, id: string, fingerprint: string | null): Promise<void> {
    await (manager ?? this.dataSource.manager).query(preparedStatement('UPDATE quote SET request_fingerprint = $3 WHERE platform_id = $1 AND id = $2'), [
      platformId,
      id,
      fingerprint,
    ]);
  }

  /**
   * Executed quotes and their transactions, whose rows stay locked (FOR UPDATE) until the caller's
   * transaction ends: what scheduled steps read, in one statement. Those not found are left out.
   */
  async findManyWithTransactionLocked(manager: EntityManager, keys: Array<{ platformId: string; id: string }>): Promise<QuoteWithTransaction[]> {
    const rows = await manager.query<QuoteRow[]>(FIND_WITH_TRANSACTIONS_LOCKED, [keys.map((key) => key.platformId), keys.map((key) => key.id)]);
    return rows.map((row) => ({ quote: toEntity(row), transaction: joinedTransaction(row) }));
  }

  async transition(
    manager: EntityManager,
    platformId: string,
    id: string,
    from: readonly QuoteStatus[],
    to: QuoteStatus,
    failureReason: QuoteFailureReason | null,
  ): Promise<QuoteEntity | undefined> {
    const { sql, params } = this.transitionStatement(platformId, id, from, to, failureReason);
    const rows = await returningRows<QuoteRow>(manager, `${sql} RETURNING *`, params);
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /** The conditional status change (no RETURNING), for a caller that writes it in one statement with other changes (`Outbox.addWithChange`). */
  transitionStatement(platformId: string, id: string, from: readonly QuoteStatus[], to: QuoteStatus, failureReason: QuoteFailureReason | null): Statement {
    return {
      sql: `UPDATE quote SET status = $4, failure_reason = $5, updated_at = now() WHERE platform_id = $1 AND id = $2 AND status = ANY ($3::text[])`,
      params: [platformId, id, [...from], to, failureReason],
    };
  }

  /** PENDING -> EXPIRED once the lock has run out. */
  async expire(manager: EntityManager, platformId: string, id: string, now: Date): Promise<QuoteEntity | undefined> {
    const rows = await returningRows<QuoteRow>(
      manager,
      `UPDATE quote SET status = 'EXPIRED', updated_at = $3 WHERE platform_id = $1 AND id = $2 AND status = 'PENDING' AND expires_at <= $3 RETURNING *`,
      [platformId, id, now],
    );
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /**
   * Strong Customer Authentication: the quote waits for `sca.challenge`. From PENDING (unexpired:
   * the execution that starts it) or from PENDING_AUTHORIZATION while `previousChallengeId` is the
   * challenge it waits for (the next of a sequence).
   */
  async awaitAuthorization(
    manager: EntityManager,
    platformId: string,
    id: string,
    sca: NonNullable<QuoteEntity['extra']['sca']>,
    previousChallengeId: string | null,
    now: Date,
  ): Promise<QuoteEntity | undefined> {
    const rows = await returningRows<QuoteRow>(
      manager,
      `UPDATE quote SET status = 'PENDING_AUTHORIZATION', extra = jsonb_set(extra, '{sca}', $3::jsonb), updated_at = $5
        WHERE platform_id = $1 AND id = $2
          AND ((status = 'PENDING' AND $4::text IS NULL AND expires_at > $5) OR (status = 'PENDING_AUTHORIZATION' AND extra->'sca'->'challenge'->>'id' = $4::text))
        RETURNING *`,
      [platformId, id, JSON.stringify(sca), previousChallengeId, now],
    );
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /** PENDING_AUTHORIZATION -> PENDING once the last challenge (`challengeId`) is authorized. */
  async authorized(manager: EntityManager, platformId: string, id: string, challengeId: string, now: Date): Promise<QuoteEntity | undefined> {
    const rows = await returningRows<QuoteRow>(
      manager,
      `UPDATE quote SET status = 'PENDING', extra = extra - 'sca', updated_at = $4
        WHERE platform_id = $1 AND id = $2 AND status = 'PENDING_AUTHORIZATION' AND extra->'sca'->'challenge'->>'id' = $3 RETURNING *`,
      [platformId, id, challengeId, now],
    );
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /** PENDING_AUTHORIZATION -> FAILED (SCA_NOT_COMPLETED) when `challengeId` expired unanswered. */
  async authorizationExpired(manager: EntityManager, platformId: string, id: string, challengeId: string, now: Date): Promise<QuoteEntity | undefined> {
    const rows = await returningRows<QuoteRow>(
      manager,
      `UPDATE quote SET status = 'FAILED', failure_reason = 'SCA_NOT_COMPLETED', extra = extra - 'sca', updated_at = $4
        WHERE platform_id = $1 AND id = $2 AND status = 'PENDING_AUTHORIZATION' AND extra->'sca'->'challenge'->>'id' = $3 RETURNING *`,
      [platformId, id, challengeId, now],
    );
    return rows[0] ? toEntity(rows[0]) : undefined;
  }
}
