import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DomainEvent, EVENT_SCHEMA_VERSION, uuidv7 } from '@paykit/contracts';
import { preparedStatement } from '../prepared-statements';

export type NewDomainEvent<D> = Omit<DomainEvent<D>, 'eventId' | 'occurredAt' | 'schemaVersion'>;

/**
 * Writes domain events into the service's outbox inside the caller's transaction, so an
 * event exists if and only if its state change committed. The relay publishes it later.
 */
@Injectable()
export class Outbox {
  async add<D>(manager: EntityManager, event: NewDomainEvent<D>): Promise<DomainEvent<D>> {
    const full = stamped(event);
    await manager.query('INSERT INTO outbox_event (id, subject, event) VALUES ($1, $2, $3)', [full.eventId, full.subject, JSON.stringify(full)]);
    return full;
  }

  /**
   * A change and its event in one statement (one round trip, atomic without a transaction;
   * run it through `TransactionRunner.runStatement`). `change` is an INSERT or UPDATE without
   * RETURNING; the event is written only when the change touched a row, else undefined.
   */
  async addWithChange<D>(runner: DataSource | EntityManager, change: { sql: string; params: unknown[] }, event: NewDomainEvent<D>): Promise<DomainEvent<D> | undefined> {
    const full = stamped(event);
    const n = change.params.length;
    const rows: unknown[] = await runner.query(
      preparedStatement(`WITH change AS (${change.sql} RETURNING 1) INSERT INTO outbox_event (id, subject, event) SELECT $${n + 1}, $${n + 2}, $${n + 3} FROM change LIMIT 1 RETURNING seq`),
      [...change.params, full.eventId, full.subject, JSON.stringify(full)],
    );
    return rows.length > 0 ? full : undefined;
  }
}

function stamped<D>(event: NewDomainEvent<D>): DomainEvent<D> {
  return { ...event, eventId: uuidv7(), occurredAt: new Date().toISOString(), schemaVersion: EVENT_SCHEMA_VERSION };
}

/**
 * Several events in few statements (bulk work), in the given order, inside the caller's
 * transaction: the same guarantees as `Outbox.add`.
 */
export async function addOutboxEvents<D>(manager: EntityManager, events: Array<NewDomainEvent<D>>): Promise<Array<DomainEvent<D>>> {
  const occurredAt = new Date().toISOString();
  const full = events.map((event): DomainEvent<D> => ({ ...event, eventId: uuidv7(), occurredAt, schemaVersion: EVENT_SCHEMA_VERSION }));
  for (let start = 0; start < full.length; start += 500) {
    const slice = full.slice(start, start + 500);
    const values = slice.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`).join(', ');
    await manager.query(`INSERT INTO outbox_event (id, subject, event) VALUES ${values}`, slice.flatMap((e) => [e.eventId, e.subject, JSON.stringify(e)]));
  }
  return full;
}
