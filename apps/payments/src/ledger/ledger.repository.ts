import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { LedgerRefusalReason, MAX_WIRE_AMOUNT, newId } from '@paykit/contracts';
import { amountFromColumn, amountToColumn, CompositeStatement, preparedStatement, returningRows, Statement } from '@paykit/persistence';
import { HoldRow, NewHold, toHoldEntity } from './holds.repository';
import { Balance, HoldCapture, HoldChange, LedgerOutcome, PostedEntry, refusal, refusalReason } from './ledger-outcomes';
import { assertBalanced, EntryKind, JournalEntryInput, LedgerAccountRef, PostingLine, SystemPurpose, UnbalancedEntryError } from './ledger-entry';

/** The running totals as a statement returns them (bigint columns arrive as text). */
interface BalanceRow {
  posted: string;
  held: string;
}

function toBalance(row: BalanceRow): Balance {
  return { posted: amountFromColumn(row.posted), held: amountFromColumn(row.held) };
}

const HOLD_COLUMNS = [
  'id',
  'platform_id',
  'account_id',
  'currency_code',
  'caller_key',
  'amount',
  'status',
  'captured_amount',
  'refunded_amount',
  'resolution_key',
  'reference',
  'created_at',
  'updated_at',
  'resolved_at',
];

/** One result row per request: the hold columns (null unless DONE), the running totals after it, whether it got past its preconditions. */
type OutcomeRow = { [K in keyof HoldRow]: HoldRow[K] | null } & { posted: string | null; held: string | null; applicable: boolean };

function toOutcome(row: OutcomeRow): LedgerOutcome {
  if (row.id !== null) {
    const done = row as HoldRow & BalanceRow;
    return { status: 'DONE', change: { hold: toHoldEntity(done), balance: toBalance(done) } };
  }
  return row.applicable ? { status: 'SHORT' } : { status: 'SKIPPED' };
}

/**
 * A checked account's posting of `amount` keeps what is available at or above zero, and the
 * balance within what an amount on the wire carries exactly (so every balance can be answered).
 */
const WITHIN_BALANCE_LIMITS = (amount: string) => `posted + ${amount} - held >= 0 AND posted + ${amount} <= ${MAX_WIRE_AMOUNT}`;

/** The lines of an entry on checked accounts, in account order (the order their rows are locked in). */
function checkedLines(entry: JournalEntryInput): PostingLine[] {
  return entry.lines.filter((line) => line.account.checked).sort((a, b) => (a.account.id < b.account.id ? -1 : 1));
}

/**
 * The ledger's SQL: balanced entries and holds. Balances are never read, checked and
 * written back by the application: each change is one conditional UPDATE whose WHERE
 * clause is the invariant, so concurrent debits serialize on the row and the loser
 * sees zero rows instead of an overdraft.
 */
@Injectable()
export class LedgerRepository {
  /** Contra account ids never change once committed; only those are cached. */
  private readonly systemAccounts = new Map<string, LedgerAccountRef>();

  constructor(private readonly dataSource: DataSource) {}

  holdingRef(id: string, currency: string): LedgerAccountRef {
    return { id, currency, checked: true };
  }

  /** The platform's contra account for a purpose and currency, created on first use. */
  async systemAccount(manager: EntityManager, platformId: string, currency: string, purpose: SystemPurpose): Promise<LedgerAccountRef> {
    const key = `${platformId}|${currency}|${purpose}`;
    const cached = this.systemAccounts.get(key);
    if (cached) return cached;
    const find = async () =>
      await manager.query<Array<{ id: string }>>(`SELECT id FROM ledger_account WHERE platform_id = $1 AND currency_code = $2 AND purpose = $3`, [platformId, currency, purpose]);
    const existing = await find();
    if (existing.length > 0) {
      const ref = { id: existing[0].id, currency, checked: false };
      this.systemAccounts.set(key, ref);
      return ref;
    }
    await manager.query(
      `INSERT INTO ledger_account (id, platform_id, currency_code, purpose, checked) VALUES ($1, $2, $3, $4, false)
       ON CONFLICT (platform_id, currency_code, purpose) WHERE purpose <> 'HOLDING' DO NOTHING`,
      [newId('LedgerAccount'), platformId, currency, purpose],
    );
    // Not cached yet: this transaction may still roll back.
    return { id: (await find())[0].id, currency, checked: false };
  }

  /**
   * Credits an internal account from one of the platform's contra accounts (sandbox funding,
   * card settlement, external clearing): one balanced entry of two lines.
   */
  async creditFromSystem(
    manager: EntityManager,
    credit: { platformId: string; kind: EntryKind; referenceId: string; accountId: string; currency: string; from: SystemPurpose; amount: bigint },
  ): Promise<PostedEntry> {
    const source = await this.systemAccount(manager, credit.platformId, credit.currency, credit.from);
    return this.post(manager, {
      platformId: credit.platformId,
      kind: credit.kind,
      referenceId: credit.referenceId,
      currency: credit.currency,
      lines: [
        { account: source, amount: -credit.amount },
        { account: this.holdingRef(credit.accountId, credit.currency), amount: credit.amount },
      ],
    });
  }

  /**
   * Writes one balanced entry and moves the running totals of its checked accounts, in
   * account order (a fixed lock order, so two entries never deadlock on each other).
   * An entry that would take a checked account below zero changes nothing: the caller's
   * transaction is aborted with INSUFFICIENT_FUNDS.
   */
  async post(manager: EntityManager, entry: JournalEntryInput): Promise<PostedEntry> {
    // The entry, its postings and (with a checked account) the first one's running totals in one
    // statement: one round trip instead of three.
    const { entryId, parts } = this.postingParts(entry);
    const [first, ...others] = checkedLines(entry);
    const statement = new CompositeStatement();
    for (const [name, part] of parts) statement.add(name, part);
    const balances = new Map<string, Balance>();
    if (!first) {
      const { sql, params } = statement.end({ sql: 'SELECT 1', params: [] });
      await manager.query(preparedStatement(sql), params);
      return { entryId, balances };
    }
    const { sql, params } = statement.end({ sql: 'SELECT posted, held FROM balance', params: [] });
    const firstUpdate = await manager.query<BalanceRow[]>(preparedStatement(sql), params);
    if (firstUpdate.length === 0) throw refusal(first.amount);
    balances.set(first.account.id, toBalance(firstUpdate[0]));
    for (const line of others) {
      const updated = await returningRows<BalanceRow>(
        manager,
        `UPDATE ledger_account SET posted = posted + $2, updated_at = now()
          WHERE id = $1 AND checked AND ${WITHIN_BALANCE_LIMITS('$2')}
          RETURNING posted, held`,
        [line.account.id, amountToColumn(line.amount)],
      );
      if (updated.length === 0) throw refusal(line.amount);
      balances.set(line.account.id, toBalance(updated[0]));
    }
    return { entryId, balances };
  }

  /**
   * One balanced entry as parts of a CompositeStatement: `<name>entry`, `<name>lines` (its
   * postings) and, when a line is on a checked account, `<name>balance`: the guarded update of the
   * first such account (in account order), RETURNING its new totals; any other checked account is
   * the caller's to move (`post` does, after). No `<name>balance` row means the account refused the
   * posting (`balance.refusal`, see `ledgerRefusal`): the statement must then not commit. `onlyIf`
   * is a further condition of that update, in SQL reading earlier parts (no parameters).
   */
  postingParts(
    entry: JournalEntryInput,
    options: { name?: string; onlyIf?: string } = {},
  ): { entryId: string; parts: Array<[string, Statement]>; balance?: { part: string; refusal: LedgerRefusalReason } } {
    assertBalanced(entry);
    const name = options.name ?? '';
    const entryId = newId('JournalEntry');
    const lineParams: unknown[] = [entryId, entry.currency];
    const rows = entry.lines.map((line) => {
      lineParams.push(line.account.id, amountToColumn(line.amount));
      return `($1, $${lineParams.length - 1}, $2, $${lineParams.length}::bigint)`;
    });
    const parts: Array<[string, Statement]> = [
      [
        `${name}entry`,
        {
          sql: 'INSERT INTO journal_entry (id, platform_id, kind, reference_id, currency_code) VALUES ($1, $2, $3, $4, $5)',
          params: [entryId, entry.platformId, entry.kind, entry.referenceId, entry.currency],
        },
      ],
      [`${name}lines`, { sql: `INSERT INTO posting (entry_id, account_id, currency_code, amount) VALUES ${rows.join(', ')}`, params: lineParams }],
    ];
    const [line] = checkedLines(entry);
    if (!line) return { entryId, parts };
    parts.push([
      `${name}balance`,
      {
        sql: `UPDATE ledger_account SET posted = posted + $2, updated_at = now()
               WHERE id = $1 AND checked AND ${WITHIN_BALANCE_LIMITS('$2')}${options.onlyIf ? ` AND ${options.onlyIf}` : ''}
               RETURNING posted, held`,
        params: [line.account.id, amountToColumn(line.amount)],
      },
    ]);
    return { entryId, parts, balance: { part: `${name}balance`, refusal: refusalReason(line.amount) } };
  }

  // The batch statements run inside the caller's transaction, or on their own (`manager`
  // omitted). They reach every row by a key of its own index, per request through a LATERAL
  // lookup with LIMIT 1, per set through `id = ANY (...)`, so the plan is a probe per row
  // whatever the statistics say: they lag behind a hold table that grows from nothing under
  // load, and one stale estimate had a capture batch scan every hold of its platform. They are
  // planned on every run, not prepared: a generic plan made while the hold table was still
  // empty scanned it for every request, and with batches the planning is a small share.

  /**
   * Places holds in one statement, each request as if run alone in array order: a hold is
   * applicable when its account is ACTIVE in its currency and its caller key is unused.
   * The applicable amounts are summed per account and held by one guarded update per
   * account row (rows locked in id order, so concurrent batches never deadlock); an
   * account's holds are written only if its sum was available, else they are SHORT. Each
   * DONE hold carries the totals as they were right after it. Requests must not share a
   * caller key: a key taken concurrently fails the statement on its unique constraint.
   */
  async placeHolds(holds: NewHold[], manager?: EntityManager): Promise<LedgerOutcome[]> {
    const rows = await (manager ?? this.dataSource.manager).query<OutcomeRow[]>(
      `WITH request AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[])
           WITH ORDINALITY AS r (id, platform_id, account_id, currency_code, caller_key, amount, reference, ord)
       ), applicable AS (
         SELECT r.* FROM request r
          CROSS JOIN LATERAL (SELECT a.platform_id, a.status, a.currency_code FROM internal_account a WHERE a.id = r.account_id LIMIT 1) a
           LEFT JOIN LATERAL (SELECT true AS taken FROM hold h WHERE h.platform_id = r.platform_id AND h.caller_key = r.caller_key LIMIT 1) k ON true
          WHERE a.platform_id = r.platform_id AND a.status = 'ACTIVE' AND a.currency_code = r.currency_code AND k.taken IS NULL
       ), total AS (
         SELECT account_id, sum(amount)::bigint AS amount FROM applicable GROUP BY account_id
       ), locked AS (
         SELECT l.id FROM ledger_account l WHERE l.id = ANY (ARRAY(SELECT account_id FROM total)) ORDER BY l.id FOR NO KEY UPDATE
       ), balance AS (
         UPDATE ledger_account l SET held = l.held + t.amount, updated_at = now()
           FROM total t
          WHERE l.id = ANY (ARRAY(SELECT id FROM locked)) AND l.id = t.account_id AND l.checked AND l.posted - l.held >= t.amount
         RETURNING l.id, l.posted, l.held
       ), placed AS (
         INSERT INTO hold (id, platform_id, account_id, currency_code, caller_key, amount, reference)
         SELECT a.id, a.platform_id, a.account_id, a.currency_code, a.caller_key, a.amount, a.reference
           FROM applicable a JOIN balance b ON b.id = a.account_id
         RETURNING *
       )
       SELECT ${HOLD_COLUMNS.map((column) => `p.${column}`).join(', ')}, a.ord IS NOT NULL AS applicable, b.posted,
              (b.held - coalesce(sum(p.amount) OVER (PARTITION BY p.account_id ORDER BY r.ord ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0))::bigint AS held
         FROM request r
         LEFT JOIN applicable a ON a.ord = r.ord
         LEFT JOIN placed p ON p.id = r.id
         LEFT JOIN balance b ON b.id = p.account_id
        ORDER BY r.ord`,
      [
        holds.map((hold) => hold.id),
        holds.map((hold) => hold.platformId),
        holds.map((hold) => hold.accountId),
        holds.map((hold) => hold.currencyCode),
        holds.map((hold) => hold.callerKey),
        holds.map((hold) => amountToColumn(hold.amount)),
        holds.map((hold) => hold.reference),
      ],
    );
    return rows.map(toOutcome);
  }

  /**
   * PENDING -> CAPTURED for many holds in one statement, each request as if run alone in
   * array order. The holds are locked first (in id order), so concurrent resolutions of a
   * hold queue and the later ones find it resolved; a request is applicable when its hold
   * is PENDING and its platform has the contra account. Per account, one guarded update takes
   * the captured amounts off the posted total and gives back the held amounts (a capture
   * below its hold frees the rest, one above it needs the excess available); only where that
   * happened are the holds resolved and their balanced entries written: the account -amount,
   * the contra account +amount. Where it did not, the account's captures are SHORT. Requests
   * must not share a hold.
   */
  async captureHolds(captures: HoldCapture[], manager?: EntityManager): Promise<LedgerOutcome[]> {
    for (const capture of captures) {
      if (capture.amount <= 0n) throw new UnbalancedEntryError(`${capture.kind}: a capture of ${capture.amount} on ${capture.holdId}`);
    }
    const rows = await (manager ?? this.dataSource.manager).query<OutcomeRow[]>(
      `WITH request AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[])
           WITH ORDINALITY AS r (platform_id, hold_id, amount, resolution_key, entry_id, counterparty, kind, ord)
       ), found AS (
         SELECT r.*, h.account_id, h.currency_code, h.amount AS held_amount, c.id AS contra_id
           FROM request r
          CROSS JOIN LATERAL (SELECT h.platform_id, h.account_id, h.currency_code, h.amount, h.status FROM hold h WHERE h.id = r.hold_id LIMIT 1) h
          CROSS JOIN LATERAL (
            SELECT c.id FROM ledger_account c
             WHERE c.platform_id = r.platform_id AND c.currency_code = h.currency_code AND c.purpose = r.counterparty AND c.purpose <> 'HOLDING'
             LIMIT 1
          ) c
          WHERE h.platform_id = r.platform_id AND h.status = 'PENDING'
       ), locked_hold AS (
         SELECT h.id FROM hold h WHERE h.id = ANY (ARRAY(SELECT hold_id FROM found)) AND h.status = 'PENDING' ORDER BY h.id FOR UPDATE
       ), target AS (
         SELECT f.* FROM found f WHERE f.hold_id IN (SELECT id FROM locked_hold)
       ), total AS (
         SELECT account_id, sum(amount)::bigint AS amount, sum(held_amount)::bigint AS held_amount FROM target GROUP BY account_id
       ), locked AS (
         SELECT l.id FROM ledger_account l WHERE l.id = ANY (ARRAY(SELECT account_id FROM total)) ORDER BY l.id FOR NO KEY UPDATE
       ), balance AS (
         UPDATE ledger_account l SET posted = l.posted - t.amount, held = l.held - t.held_amount, updated_at = now()
           FROM total t
          WHERE l.id = ANY (ARRAY(SELECT id FROM locked)) AND l.id = t.account_id
            AND l.checked AND l.held >= t.held_amount AND l.posted - t.amount - (l.held - t.held_amount) >= 0
         RETURNING l.id, l.posted, l.held
       ), resolved AS (
         UPDATE hold h SET status = 'CAPTURED', captured_amount = t.amount, resolution_key = t.resolution_key, resolved_at = now(), updated_at = now()
           FROM target t JOIN balance b ON b.id = t.account_id
          WHERE h.id = ANY (ARRAY(SELECT hold_id FROM target)) AND h.id = t.hold_id
         RETURNING h.*, t.contra_id, t.entry_id, t.kind, t.ord AS request_ord
       ), entry AS (
         INSERT INTO journal_entry (id, platform_id, kind, reference_id, currency_code)
         SELECT x.entry_id, x.platform_id, x.kind, x.id, x.currency_code FROM resolved x
       ), posting AS (
         INSERT INTO posting (entry_id, account_id, currency_code, amount)
         SELECT x.entry_id, line.account_id, x.currency_code, line.amount
           FROM resolved x CROSS JOIN LATERAL (VALUES (x.account_id, -x.captured_amount), (x.contra_id, x.captured_amount)) AS line (account_id, amount)
       )
       SELECT ${HOLD_COLUMNS.map((column) => `x.${column}`).join(', ')}, t.ord IS NOT NULL AS applicable,
              (b.posted + coalesce(sum(x.captured_amount) OVER later, 0))::bigint AS posted,
              (b.held + coalesce(sum(x.amount) OVER later, 0))::bigint AS held
         FROM request r
         LEFT JOIN target t ON t.ord = r.ord
         LEFT JOIN resolved x ON x.request_ord = r.ord
         LEFT JOIN balance b ON b.id = x.account_id
       WINDOW later AS (PARTITION BY x.account_id ORDER BY r.ord ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)
        ORDER BY r.ord`,
      [
        captures.map((capture) => capture.platformId),
        captures.map((capture) => capture.holdId),
        captures.map((capture) => amountToColumn(capture.amount)),
        captures.map((capture) => capture.resolutionKey),
        captures.map(() => newId('JournalEntry')),
        captures.map((capture) => capture.counterparty),
        captures.map((capture) => capture.kind),
      ],
    );
    return rows.map(toOutcome);
  }

  /** PENDING -> RELEASED in one statement: the held amount is available again. Undefined when the hold is not PENDING (or unknown). */
  async releaseHold(manager: EntityManager, platformId: string, holdId: string, resolutionKey: string): Promise<HoldChange | undefined> {
    const rows = await manager.query<Array<HoldRow & BalanceRow>>(
      `WITH resolved AS (
         UPDATE hold SET status = 'RELEASED', resolution_key = $3, resolved_at = now(), updated_at = now()
          WHERE platform_id = $1 AND id = $2 AND status = 'PENDING'
         RETURNING *
       ), balance AS (
         UPDATE ledger_account l SET held = l.held - r.amount, updated_at = now()
           FROM resolved r WHERE l.id = r.account_id
         RETURNING l.posted, l.held
       )
       SELECT r.*, b.posted, b.held FROM resolved r, balance b`,
      [platformId, holdId, resolutionKey],
    );
    return rows[0] && { hold: toHoldEntity(rows[0]), balance: toBalance(rows[0]) };
  }

  async balance(manager: EntityManager, accountId: string): Promise<Balance | undefined> {
    const rows = await manager.query<BalanceRow[]>(`SELECT posted, held FROM ledger_account WHERE id = $1`, [accountId]);
    return rows[0] && toBalance(rows[0]);
  }
}
