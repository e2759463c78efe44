import { CONTRACT_CHANGES, ContractChanges, DomainEvent, EVENT_PAYLOAD_CONTRACTS, EventPayloadMap, ReadEventSubject } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { validateContract } from '@paykit/validation';
import { NewerContractVersion, readAtCurrentVersion } from './contract-reading';
import { EventBatchHandler, EventHandler } from './in-process-broker';

/** An event as its consumer receives it: `data` is the subject's payload contract, validated. */
export type ReadEvent<S extends ReadEventSubject> = Omit<DomainEvent, 'subject' | 'data'> & { subject: S; data: EventPayloadMap[S] };

/** A consumer's handlers, one per subject it reads. */
export type EventHandlers = { [S in ReadEventSubject]?: (event: ReadEvent<S>) => Promise<void> };

/**
 * A batch consumer's handlers, one per subject it reads: each call gets consecutive events of
 * that subject, in stream order, to apply all at once or fail as a whole.
 */
export type EventBatchHandlers = { [S in ReadEventSubject]?: (events: Array<ReadEvent<S>>) => Promise<void> };

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

/**
 * The batch form of `handleEvents`, for `EventBus.consumeBatches`: the batch's events of the
 * subjects it handles are read as `handleEvents` reads them, and each run of consecutive events
 * of one subject goes to that subject's handler at once, runs in stream order (so a resource's
 * events keep their order). An unreadable event fails the whole batch; the dead-letter guard
 * (`DeadLetterStore.guardBatch`) then handles the events one by one and parks that one alone.
 */
export function handleEventBatches(handlers: EventBatchHandlers, changes: ContractChanges = CONTRACT_CHANGES): EventBatchHandler {
  return async (events) => {
    let run: DomainEvent[] = [];
    for (const event of events) {
      if (!isReadSubject(event.subject) || !handlers[event.subject]) continue;
      if (run.length > 0 && run[0].subject !== event.subject) {
        await dispatchRun(handlers, run, changes);
        run = [];
      }
      run.push(event);
    }
    if (run.length > 0) await dispatchRun(handlers, run, changes);
  };
}

async function dispatch<S extends ReadEventSubject>(handlers: EventHandlers, subject: S, event: DomainEvent, changes: ContractChanges): Promise<void> {
  const handler = handlers[subject];
  if (!handler) return;
  await handler(read(subject, event, changes));
}

/** A run of events of one subject (the first's) to its handler. */
function dispatchRun<S extends ReadEventSubject>(handlers: EventBatchHandlers, run: DomainEvent[], changes: ContractChanges, subject = run[0].subject as S): Promise<void> {
  const handler: ((events: Array<ReadEvent<S>>) => Promise<void>) | undefined = handlers[subject];
  return handler ? handler(run.map((event) => read(subject, event, changes))) : Promise.resolve();
}

/** The event with its payload brought to the current version and validated against its contract. */
function read<S extends ReadEventSubject>(subject: S, event: DomainEvent, changes: ContractChanges): ReadEvent<S> {
  let data: EventPayloadMap[S];
  try {
    data = validateContract(EVENT_PAYLOAD_CONTRACTS[subject], readAtCurrentVersion(subject, event.schemaVersion, event.data, changes), { unknownFields: 'drop' });
  } catch (error) {
    if (error instanceof NewerContractVersion || !(error instanceof ServiceError)) throw error;
    throw new UnreadableEvent(`Event ${event.eventId} (${subject}) breaks its contract: ${error.message} ${JSON.stringify(error.details ?? {})}`, error.details);
  }
  return { ...event, subject, data };
}

function isReadSubject(subject: string): subject is ReadEventSubject {
  return Object.hasOwn(EVENT_PAYLOAD_CONTRACTS, subject);
}
