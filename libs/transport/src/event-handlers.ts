import { CONTRACT_CHANGES, ContractChanges, DomainEvent, EVENT_PAYLOAD_CONTRACTS, EventPayloadMap, ReadEventSubject } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { validateContract } from '@paykit/validation';
import { NewerContractVersion, readAtCurrentVersion } from './contract-reading';
import { EventHandler } from './in-process-broker';

/** An event as its consumer receives it: `data` is the subject's payload contract, validated. */
export type ReadEvent<S extends ReadEventSubject> = Omit<DomainEvent, 'subject' | 'data'> & { subject: S; data: EventPayloadMap[S] };

/** A consumer's handlers, one per subject it reads. */
export type EventHandlers = { [S in ReadEventSubject]?: (event: ReadEvent<S>) => Promise<void> };

/** An event whose payload breaks its subject's contract: no retry makes it readable, so it is parked at the first failure. */
export class UnreadableEvent extends Error {
  readonly retryable = false;
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'UnreadableEvent';
  }
}

/**
 * The handler a consumer gives `EventBus.consume`: each event of a subject it handles is brought
 * to its contract's current version and validated before its handler runs; events of other
 * subjects (its filter may match more) are acknowledged unread. An event that fails validation
 * fails with `UnreadableEvent`, which no retry makes valid: the consumer's dead-letter guard
 * (libs/persistence `DeadLetterStore.guard`) parks it at once. One from a newer release fails
 * too, as transient, so the bus retries it until an upgraded replica takes it.
 */
export function handleEvents(handlers: EventHandlers, changes: ContractChanges = CONTRACT_CHANGES): EventHandler {
  return async (event) => {
    if (isReadSubject(event.subject)) await dispatch(handlers, event.subject, event, changes);
  };
}

async function dispatch<S extends ReadEventSubject>(handlers: EventHandlers, subject: S, event: DomainEvent, changes: ContractChanges): Promise<void> {
  const handler = handlers[subject];
  if (!handler) return;
  let data: EventPayloadMap[S];
  try {
    data = validateContract(EVENT_PAYLOAD_CONTRACTS[subject], readAtCurrentVersion(subject, event.schemaVersion, event.data, changes), { unknownFields: 'drop' });
  } catch (error) {
    if (error instanceof NewerContractVersion || !(error instanceof ServiceError)) throw error;
    throw new UnreadableEvent(`Event ${event.eventId} (${subject}) breaks its contract: ${error.message} ${JSON.stringify(error.details ?? {})}`, error.details);
  }
  await handler({ ...event, subject, data });
}

function isReadSubject(subject: string): subject is ReadEventSubject {
  return Object.hasOwn(EVENT_PAYLOAD_CONTRACTS, subject);
}
