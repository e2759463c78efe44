import { Injectable, Optional } from '@nestjs/common';
import { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import { contractVersion, DomainEvent, NewEvent, uuidv7 } from '@paykit/contracts';
import { currentTraceparent } from '@paykit/transport';
import { EntityInsert } from '../entity-insert';
import { preparedStatement } from '../prepared-statements';
import { Clock } from '../clock/clock';
import { CompositeStatement, Statement } from '../statement';

/** A new row and the event announcing it; a `guarded` row is inserted only where the statement's guard holds. */
export interface InsertWithEvent<T> {
  entity: T;
  event: NewEvent;
  guarded?: boolean;
}

/**
 * What keeps a guarded row out. `ctes` and `condition` are SQL over the recordset `input` (alias
 * `i` in `condition`): extra CTEs, and the condition a guarded row must meet. `skipExisting`
 * leaves out every row (guarded or not) whose primary key is taken, even by a transaction still
 * running beside this one (a condition reading the table cannot see that row, and the insert would
 * fail on the key).
 */
export type InsertGuard = { ctes: string; condition: string; skipExisting?: false } | { skipExisting: true };

/**
 * Writes domain events into the service's outbox inside the caller's transaction, so an
 * event exists if and only if its state change committed. The relay publishes it later.
 * Events are typed by the contracts' EventMap: a subject only takes its own payload.
 */
@Injectable()
export class Outbox {
  /** Optional so a test can build one bare; events then carry real time. */
  constructor(@Optional() private readonly clock?: Clock) {}

  /** An event's occurredAt is in its platform's time (the platform in scope). */
  private stamped(event: NewEvent): DomainEvent {
    return stamped(event, (this.clock?.now() ?? new Date()).toISOString());
  }

  async add(manager: EntityManager, event: NewEvent): Promise<void> {
    const full = this.stamped(event);
    await manager.query(preparedStatement('INSERT INTO outbox_event (id, subject, event, trace_context) VALUES ($1, $2, $3, $4)'), [
      full.eventId,
      full.subject,
      JSON.stringify(full),
      currentTraceparent(),
    ]);
  }

  /** Several events in few statements (one per 500), in the given order, inside the caller's transaction. */
  async addMany(manager: EntityManager, events: NewEvent[]): Promise<void> {
    await addOutboxEvents(manager, events, this.clock?.now() ?? new Date());
  }

  /**
   * One change and its event in one statement (one round trip, atomic without a transaction, or
   * inside the caller's): `change` is an INSERT or UPDATE without RETURNING; the event is written
   * only when the change touched a row (the answer). `alongside` are further changes of other
   * tables (no RETURNING) written by the same statement whether or not `change` touched a row: for
   * a caller that rolls back when it did not. Many inserts of one entity: `addManyWithInserts`.
   */
  async addWithChange(runner: DataSource | EntityManager, change: Statement, event: NewEvent, alongside: Statement[] = []): Promise<boolean> {
    const statement = new CompositeStatement().add('change', { sql: `${change.sql} RETURNING 1`, params: change.params });
    alongside.forEach((other, i) => statement.add(`alongside_${i + 1}`, other));
    const announced = this.eventPart(event, 'change');
    const { sql, params } = statement.end({ sql: `${announced.sql} RETURNING seq`, params: announced.params });
    const rows: unknown[] = await runner.query(preparedStatement(sql), params);
    return rows.length > 0;
  }

  /**
   * The INSERT writing `event` if the part named `after` of a CompositeStatement returned a row
   * (once, however many it returned): a change and its event in one statement.
   */
  eventPart(event: NewEvent, after: string): Statement {
    const full = this.stamped(event);
    return {
      sql: `INSERT INTO outbox_event (id, subject, event, trace_context) SELECT $1, $2, $3, $4 FROM ${after} LIMIT 1`,
      params: [full.eventId, full.subject, JSON.stringify(full), currentTraceparent()],
    };
  }

  /**
   * Inserts of one entity, each with its event, in one statement (group commit: one round trip
   * and one commit for the batch, atomic without a transaction). The rows travel as one JSON
   * recordset; each event is written only with its row, in the given order. Answers, per
   * row, whether it was inserted (a guard may keep guarded rows out).
   */
  async addManyWithInserts<T extends ObjectLiteral>(
    runner: DataSource | EntityManager,
    insert: EntityInsert<T>,
    rows: Array<InsertWithEvent<T>>,
    guard?: InsertGuard,
  ): Promise<boolean[]> {
    const key = insert.keyColumn;
    const traceContext = currentTraceparent();
    const recordset = rows.map((row, ord): Record<string, unknown> => {
      const full = this.stamped(row.event);
      const record: Record<string, unknown> = insert.record(row.entity);
      return {
        ...record,
        outbox_ord: ord,
        outbox_guarded: row.guarded === true,
        outbox_event_id: full.eventId,
        outbox_subject: full.subject,
        outbox_event: full,
        outbox_trace_context: traceContext,
      };
    });
    const sql = insertsWithEventsSql(insert, guard);
    const inserted: Array<{ key: unknown }> = await runner.query(sql, [JSON.stringify(recordset)]);
    const keys = new Set(inserted.map((row) => String(row.key)));
    return recordset.map((row) => keys.has(String(row[key])));
  }
}

/** Statement texts of `addManyWithInserts`, built (and marked for preparing) once per entity and guard: it runs on hot paths. */
const insertsWithEvents = new WeakMap<EntityInsert<ObjectLiteral>, Map<InsertGuard | undefined, string>>();

function insertsWithEventsSql(insert: EntityInsert<ObjectLiteral>, guard: InsertGuard | undefined): string {
  let byGuard = insertsWithEvents.get(insert);
  if (!byGuard) insertsWithEvents.set(insert, (byGuard = new Map<InsertGuard | undefined, string>()));
  const cached = byGuard.get(guard);
  if (cached !== undefined) return cached;
  const key = insert.keyColumn;
  if (!key) throw new Error(`${insert.table}: batched inserts need a single-column primary key`);
  const condition = guard && !guard.skipExisting ? guard : undefined;
  const sql = preparedStatement(`WITH input AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb)
        AS i(outbox_ord int, outbox_guarded boolean, outbox_event_id uuid, outbox_subject text, outbox_event jsonb, outbox_trace_context text, ${insert.recordsetColumns})
    )${condition ? `, ${condition.ctes}` : ''}, inserted AS (
      INSERT INTO ${insert.table} (${insert.columnList})
      SELECT ${insert.columnList} FROM input i ${condition ? `WHERE NOT i.outbox_guarded OR (${condition.condition})` : ''}
       ORDER BY i.outbox_ord
      ${guard?.skipExisting ? `ON CONFLICT ("${key}") DO NOTHING` : ''}
      RETURNING "${key}"
    ), announced AS (
      INSERT INTO outbox_event (id, subject, event, trace_context)
      SELECT i.outbox_event_id, i.outbox_subject, i.outbox_event, i.outbox_trace_context FROM input i JOIN inserted n ON n."${key}" = i."${key}"
       ORDER BY i.outbox_ord
    )
    SELECT "${key}" AS key FROM inserted`);
  byGuard.set(guard, sql);
  return sql;
}

/** The event as published: its id, when it happened, and the version of its subject's contract it is written at. */
function stamped(event: NewEvent, occurredAt: string): DomainEvent {
  return { ...event, eventId: uuidv7(), occurredAt, schemaVersion: contractVersion(event.subject) };
}

/**
 * Several events in few statements (bulk work), in the given order, inside the caller's
 * transaction: the same guarantees as `Outbox.add`.
 */
export async function addOutboxEvents(manager: EntityManager, events: NewEvent[], at: Date = new Date()): Promise<void> {
  const occurredAt = at.toISOString();
  const full = events.map((event) => stamped(event, occurredAt));
  const traceContext = currentTraceparent();
  for (let start = 0; start < full.length; start += 500) {
    const slice = full.slice(start, start + 500);
    const values = slice.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`).join(', ');
    await manager.query(
      `INSERT INTO outbox_event (id, subject, event, trace_context) VALUES ${values}`,
      slice.flatMap((e) => [e.eventId, e.subject, JSON.stringify(e), traceContext]),
    );
  }
}
