import { IsString } from 'class-validator';
import { DataSource } from 'typeorm';
import { DomainEvent, EVENT_SCHEMA_VERSION, uuidv7 } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { processMetrics, RuntimeConfig } from '@paykit/runtime';
import { EventBus, InProcessBroker, InProcessEventBus, UnreadableEvent } from '@paykit/transport';
import { freshPgliteDataDir, removeDataDir, pollUntil } from '@paykit/testing';
import { serviceDataSourceOptions } from '../data-source';
import { closePgliteHosts } from '../pglite-host';
import { OutboxRelay } from '../outbox/outbox-relay';
import { JobKind, JobScheduler } from '../scheduler/job-scheduler';
import { TransactionRunner } from '../transaction-runner';
import { Clock } from '../clock/clock';
import { DEAD_LETTERS_METRIC, deadLetterQueries, DeadLetterStore } from './dead-letter-store';
import { DeadLetterEntity } from './dead-letter.entity';
import { isTransientFailure, TransientFailure } from './failure-classification';

const SUBJECT = 'dead-letter-test.events.widget.changed';
const MAX_ATTEMPTS = 3;

function widgetEvent(resourceId: string, platformId: string): DomainEvent {
  return { eventId: uuidv7(), subject: SUBJECT, occurredAt: new Date().toISOString(), platformId, schemaVersion: EVENT_SCHEMA_VERSION, resourceId, data: { id: resourceId } };
}

class WidgetJob {
  @IsString()
  platformId!: string;

  @IsString()
  widgetId!: string;
}
const WIDGET_JOB: JobKind<WidgetJob> = { name: 'test.widget', payload: WidgetJob };

describe('Dead letters: a poison message is retried a bounded number of times, parked, and never holds up the rest', () => {
  let dataDir: string;
  let dataSource: DataSource;
  let deadLetters: DeadLetterStore;
  const config = { mode: 'embedded', sandboxTimeScale: 0.001, deadLetters: { maxAttempts: MAX_ATTEMPTS, backoffMs: 5 } } as RuntimeConfig;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    dataDir = freshPgliteDataDir();
    dataSource = new DataSource(serviceDataSourceOptions({ ...config, embeddedDataDir: dataDir }, { service: 'cards', entities: [], migrations: [] }));
    await dataSource.initialize();
  }, 60_000);

  afterAll(async () => {
    await dataSource.destroy();
    await closePgliteHosts();
    removeDataDir(dataDir);
  });

  beforeEach(async () => {
    await dataSource.query(`DELETE FROM dead_letter`);
    deadLetters = new DeadLetterStore(dataSource, config);
  });

  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  /** The outbox and relay of a service publishing onto `bus`. */
  function relayOnto(bus: EventBus): { relay: OutboxRelay; add: (event: DomainEvent) => Promise<void> } {
    const relay = new OutboxRelay(dataSource, bus, { whenReady: Promise.resolve() }, deadLetters);
    relay.onApplicationBootstrap();
    stops.push(() => relay.onApplicationShutdown());
    const transactions = new TransactionRunner(dataSource, relay);
    return {
      relay,
      // The event as written (its id kept), so the test knows which one was parked.
      add: (event) =>
        transactions.run(async (manager) => {
          await manager.query(`INSERT INTO outbox_event (id, subject, event) VALUES ($1, $2, $3)`, [event.eventId, event.subject, JSON.stringify(event)]);
        }),
    };
  }

  const lettersOf = (source: string): Promise<DeadLetterEntity[]> => dataSource.getRepository(DeadLetterEntity).find({ where: { source: source as never } });
  const outboxRows = async (): Promise<number> => (await dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM outbox_event`))[0].n;

  it('classifies outages and lost races as transient, anything else (a bug, a bad payload) as not', () => {
    expect(isTransientFailure(Object.assign(new Error('x'), { code: '40001' }))).toBe(true);
    expect(isTransientFailure(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    expect(isTransientFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransientFailure({ message: 'query failed', driverError: { code: '55P03' } })).toBe(true);
    expect(isTransientFailure(new TransientFailure('stopping'))).toBe(true);
    expect(isTransientFailure(new ServiceError('SERVICE_UNAVAILABLE', 'payments is not answering'))).toBe(true);
    expect(isTransientFailure(new ServiceError('INVALID_INPUT', 'Request validation failed'))).toBe(false);
    expect(isTransientFailure(new TypeError("Cannot read properties of undefined (reading 'descriptor')"))).toBe(false);
    expect(isTransientFailure(Object.assign(new Error('x'), { code: '23505' }))).toBe(false);
    expect(isTransientFailure(new UnreadableEvent('bad payload'))).toBe(false);
  });

  describe('in-process bus (embedded mode): relay and guarded consumer', () => {
    it("parks the poison event after the bounded retries; other resources', other platforms' and its resource's later events flow; a replay delivers it once", async () => {
      const broker = new InProcessBroker();
      const bus = new InProcessEventBus(broker);
      const handled: string[] = [];
      let poisonAttempts = 0;
      let cured = false;
      await bus.consume(
        'widgets',
        'dead-letter-test.events.>',
        deadLetters.guard('widgets', async (event) => {
          if (event.resourceId === 'poison' && !cured) {
            poisonAttempts += 1;
            throw new TypeError("Cannot read properties of undefined (reading 'descriptor')");
          }
          handled.push(`${event.platformId}/${event.resourceId}`);
        }),
      );
      const metricBefore = processMetrics.value(DEAD_LETTERS_METRIC, { source: 'event-consumer' });
      const { add } = relayOnto(bus);
      const poison = widgetEvent('poison', 'Platform:1');
      await add(poison);
      await add(widgetEvent('other', 'Platform:2'));
      await add(widgetEvent('poison-later', 'Platform:1'));
      await pollUntil(() => handled.length === 2);
      expect(handled).toEqual(['Platform:2/other', 'Platform:1/poison-later']);
      await pollUntil(async () => (await outboxRows()) === 0);
      expect(poisonAttempts).toBe(MAX_ATTEMPTS);
      const [letter] = await lettersOf('event-consumer');
      expect(letter).toMatchObject({
        consumer: 'widgets',
        messageId: poison.eventId,
        subject: SUBJECT,
        resourceKey: 'poison',
        platformId: 'Platform:1',
        attempts: MAX_ATTEMPTS,
        error: expect.stringContaining('descriptor'),
        replayedAt: null,
      });
      expect(letter.payload).toEqual(poison);
      expect(processMetrics.value(DEAD_LETTERS_METRIC, { source: 'event-consumer' })).toBe(metricBefore + 1);

      // Fixed, then replayed by the operator: handled once, marked replayed.
      cured = true;
      expect(await deadLetterQueries.requestReplay(dataSource, letter.id)).toBe(true);
      expect(await deadLetters.replayRequested()).toBe(1);
      expect(await deadLetters.replayRequested()).toBe(0);
      expect(handled).toEqual(['Platform:2/other', 'Platform:1/poison-later', 'Platform:1/poison']);
      expect((await deadLetterQueries.find(dataSource, letter.id))?.replayedAt).toBeInstanceOf(Date);
    });

    it('parks an unreadable event at its first failure, and a replay that fails again parks it again', async () => {
      const broker = new InProcessBroker();
      const bus = new InProcessEventBus(broker);
      let attempts = 0;
      await bus.consume(
        'strict',
        'dead-letter-test.events.>',
        deadLetters.guard('strict', async () => {
          attempts += 1;
          throw new UnreadableEvent('merchant must be an object');
        }),
      );
      const { add } = relayOnto(bus);
      await add(widgetEvent('unreadable', 'Platform:1'));
      await pollUntil(async () => (await lettersOf('event-consumer')).length === 1);
      expect(attempts).toBe(1);
      const [letter] = await lettersOf('event-consumer');
      await deadLetterQueries.requestReplay(dataSource, letter.id);
      await deadLetters.replayRequested();
      expect(attempts).toBe(2);
      expect(await deadLetterQueries.find(dataSource, letter.id)).toMatchObject({ parkedCount: 2, replayedAt: null, replayRequestedAt: null });
    });

    it('isolates a poison event of a batch: the batch is taken one event at a time, the poison parked alone, the others applied; a replay delivers it once', async () => {
      const broker = new InProcessBroker();
      const bus = new InProcessEventBus(broker);
      const applied: string[] = [];
      const batchSizes: number[] = [];
      let cured = false;
      await bus.consumeBatches(
        'widget-batches',
        'dead-letter-test.events.>',
        deadLetters.guardBatch('widget-batches', async (events) => {
          batchSizes.push(events.length);
          // All or nothing, as a batch handler's one statement is.
          if (events.some((event) => event.resourceId === 'poison') && !cured) throw new TypeError("Cannot read properties of undefined (reading 'descriptor')");
          applied.push(...events.map((event) => event.resourceId));
        }),
      );
      const { relay } = relayOnto(bus);
      const poison = widgetEvent('poison', 'Platform:1');
      // Written in one transaction, so the relay publishes them together: one batch.
      await new TransactionRunner(dataSource, relay).run(async (manager) => {
        for (const event of [widgetEvent('before', 'Platform:1'), poison, widgetEvent('after', 'Platform:2')]) {
          await manager.query(`INSERT INTO outbox_event (id, subject, event) VALUES ($1, $2, $3)`, [event.eventId, event.subject, JSON.stringify(event)]);
        }
      });
      await pollUntil(async () => (await lettersOf('event-consumer')).length === 1 && (await outboxRows()) === 0);
      expect(applied).toEqual(['before', 'after']);
      // The batch of three, then one at a time: the poison MAX_ATTEMPTS times.
      expect(batchSizes).toEqual([3, 1, ...Array(MAX_ATTEMPTS).fill(1), 1]);
      const [letter] = await lettersOf('event-consumer');
      expect(letter).toMatchObject({ consumer: 'widget-batches', messageId: poison.eventId, attempts: MAX_ATTEMPTS });

      cured = true;
      await deadLetterQueries.requestReplay(dataSource, letter.id);
      expect(await deadLetters.replayRequested()).toBe(1);
      expect(applied).toEqual(['before', 'after', 'poison']);
    });

    it('keeps retrying a transient failure (never parked), in order', async () => {
      const broker = new InProcessBroker();
      const bus = new InProcessEventBus(broker);
      const handled: string[] = [];
      let outageLeft = MAX_ATTEMPTS + 2;
      await bus.consume(
        'outage',
        'dead-letter-test.events.>',
        deadLetters.guard('outage', async (event) => {
          if (outageLeft > 0) {
            outageLeft -= 1;
            throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
          }
          handled.push(event.resourceId);
        }),
      );
      const { add } = relayOnto(bus);
      await add(widgetEvent('first', 'Platform:1'));
      await add(widgetEvent('second', 'Platform:1'));
      await pollUntil(() => handled.length === 2);
      expect(handled).toEqual(['first', 'second']);
      expect(await lettersOf('event-consumer')).toEqual([]);
    });
  });

  describe('outbox relay', () => {
    it('moves a row the bus keeps refusing to the dead-letter table after the bounded retries; the rows behind it go out; a replay re-publishes it', async () => {
      const published: string[] = [];
      let refusing = true;
      let refusals = 0;
      const bus: EventBus = {
        async publish(event) {
          if (event.resourceId === 'too-big' && refusing) {
            refusals += 1;
            throw new Error('maximum payload exceeded');
          }
          published.push(event.resourceId);
        },
        async consume() {},
        async consumeBatches() {},
        async close() {},
      };
      const { add } = relayOnto(bus);
      const poison = widgetEvent('too-big', 'Platform:1');
      await add(poison);
      await add(widgetEvent('next', 'Platform:2'));
      await pollUntil(() => published.includes('next'));
      await pollUntil(async () => (await outboxRows()) === 0);
      expect(refusals).toBe(MAX_ATTEMPTS);
      const [letter] = await lettersOf('outbox-relay');
      expect(letter).toMatchObject({ consumer: 'relay', messageId: poison.eventId, attempts: MAX_ATTEMPTS, error: 'maximum payload exceeded' });

      refusing = false;
      await deadLetterQueries.requestReplay(dataSource, letter.id);
      expect(await deadLetters.replayRequested()).toBe(1);
      await pollUntil(() => published.includes('too-big'));
      expect(published.filter((id) => id === 'too-big')).toHaveLength(1);
    });
  });

  describe('scheduler', () => {
    it('marks a job that keeps failing DEAD and parks it; other jobs run; a replay queues it again once', async () => {
      const transactions = new TransactionRunner(dataSource, { kick: () => undefined } as unknown as OutboxRelay);
      const scheduler = new JobScheduler(dataSource, transactions, config, deadLetters, new Clock(dataSource));
      stops.push(() => scheduler.onApplicationShutdown());
      const ran: string[] = [];
      let cured = false;
      let poisonRuns = 0;
      scheduler.register(WIDGET_JOB, async (payload) => {
        if (payload.widgetId === 'poison' && !cured) {
          poisonRuns += 1;
          throw new RangeError('Invalid time value');
        }
        ran.push(payload.widgetId);
      });
      await scheduler.scheduleBatch([
        { kind: WIDGET_JOB, payload: { platformId: 'Platform:1', widgetId: 'poison' }, delayMs: 0 },
        { kind: WIDGET_JOB, payload: { platformId: 'Platform:2', widgetId: 'other' }, delayMs: 0 },
      ]);
      scheduler.onApplicationBootstrap();
      await pollUntil(async () => (await lettersOf('scheduler')).length === 1);
      // (Jobs claimed in one batch run again alone after a failure rolled the batch back, so runs are
      // counted by the job's attempts, not by calls.)
      expect(new Set(ran)).toEqual(new Set(['other']));
      const runsWhenParked = poisonRuns;
      const [letter] = await lettersOf('scheduler');
      expect(letter).toMatchObject({ consumer: WIDGET_JOB.name, platformId: 'Platform:1', attempts: MAX_ATTEMPTS, payload: { widgetId: 'poison' } });
      expect(await dataSource.query(`SELECT status FROM scheduled_job WHERE id = $1`, [letter.messageId])).toEqual([{ status: 'DEAD' }]);

      // Scheduled later and still run: the dead job is never claimed again.
      await scheduler.scheduleBatch([{ kind: WIDGET_JOB, payload: { platformId: 'Platform:1', widgetId: 'later' }, delayMs: 0 }]);
      await pollUntil(() => ran.includes('later'));
      expect(poisonRuns).toBe(runsWhenParked);

      cured = true;
      await deadLetterQueries.requestReplay(dataSource, letter.id);
      expect(await deadLetters.replayRequested()).toBe(1);
      await pollUntil(() => ran.includes('poison'));
      expect(await dataSource.query(`SELECT status FROM scheduled_job WHERE id = $1`, [letter.messageId])).toEqual([{ status: 'DONE' }]);
    });
  });
});
