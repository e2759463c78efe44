import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvent, EVENT_SCHEMA_VERSION, uuidv7 } from '@paykit/contracts';

export type NewDomainEvent<D> = Omit<DomainEvent<D>, 'eventId' | 'occurredAt' | 'schemaVersion'>;

/**
 * Writes domain events into the service's outbox inside the caller's transaction, so an
 * event exists if and only if its state change committed. The relay publishes it later.
 */
@Injectable()
export class Outbox {
  async add<D>(manager: EntityManager, event: NewDomainEvent<D>): Promise<DomainEvent<D>> {
    const full: DomainEvent<D> = {
      ...event,
      eventId: uuidv7(),
      occurredAt: new Date().toISOString(),
      schemaVersion: EVENT_SCHEMA_VERSION,
    };
    await manager.query('INSERT INTO outbox_event (id, subject, event) VALUES ($1, $2, $3)', [full.eventId, full.subject, JSON.stringify(full)]);
    return full;
  }
}
