import { DomainEvent, EVENT_SCHEMA_VERSION, uuidv7 } from '@paykit/contracts';

/** Shared by the webhooks end-to-end files (not a spec itself). */

/** A domain event as a service would publish it, about a resource of a test-only kind, announced as WIDGET.CHANGED. */
export function syntheticEvent(platformId: string, resourceId: string, occurredAt: Date, version: number): DomainEvent {
  return {
    eventId: uuidv7(),
    subject: 'webhooks-test.events.widget.changed',
    occurredAt: occurredAt.toISOString(),
    platformId,
    schemaVersion: EVENT_SCHEMA_VERSION,
    resourceId,
    webhookType: 'WIDGET.CHANGED',
    data: { id: resourceId, version },
  };
}
