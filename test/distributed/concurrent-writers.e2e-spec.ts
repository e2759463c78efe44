import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { NewEvent } from '@paykit/contracts';
import {
  EntityInsert,
  IdempotencyRecordEntity,
  IdempotencyStore,
  InsertGuard,
  InsertWithEvent,
  Outbox,
  OutboxRelay,
  TransactionRunner,
  underStartupLock,
} from '@paykit/persistence';
import { pollUntil, POSTGRES_ADMIN_URL } from '@paykit/testing';
import { DiscoveriesRepository } from '../../apps/external-accounts/src/discoveries/discoveries.repository';
import { DiscoveryBankEntity } from '../../apps/external-accounts/src/discoveries/entities/discovery-bank.entity';

@Entity({ name: 'gadget' })
class GadgetEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  label!: string;
}

const SKIP_EXISTING: InsertGuard = { skipExisting: true };

/**
 * Two sessions writing the same rows at once on the real PostgreSQL: what the in-process database
 * (one session) never shows. Each case holds the first writer's transaction open until the second
 * one waits on it, then lets it finish.
 */
describe('Concurrent writers on PostgreSQL', () => {
  const database = `paykit_writers_${randomBytes(4).toString('hex')}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  let admin: Client;
  let dataSource: DataSource;

  beforeAll(async () => {
    admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    dataSource = new DataSource({ type: 'postgres', url: url.toString(), entities: [GadgetEntity, DiscoveryBankEntity, IdempotencyRecordEntity], poolSize: 4 });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE gadget (id text PRIMARY KEY, label text NOT NULL)');
    await dataSource.query(
      'CREATE TABLE outbox_event (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id uuid NOT NULL, subject text NOT NULL, event jsonb NOT NULL, trace_context text)',
    );
    await dataSource.query(
      'CREATE TABLE idempotency_record (platform_id text, idempotency_key text, request_hash text NOT NULL, response jsonb, CONSTRAINT pk_idempotency_record PRIMARY KEY (platform_id, idempotency_key))',
    );
    await dataSource.query('CREATE TABLE discovery_bank (country text, currency text, bank_name text, display_name text NOT NULL, PRIMARY KEY (country, currency, bank_name))');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  /** True once a session of the test database waits for a lock (the second writer, on the first one). */
  const someoneWaitsOnALock = async (): Promise<boolean> =>
    (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [database])).rowCount! > 0;

  /** Runs `first` in a transaction left open until `second` waits on it, then ends it (commit or rollback) and answers what `second` did. */
  async function interleaved<T>(first: (runner: DataSource['manager']) => Promise<unknown>, second: () => Promise<T>, end: 'commit' | 'rollback'): Promise<T> {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await first(runner.manager);
      const later = second();
      // A second writer that ends without waiting fails the case at once, with its own error if it has one.
      await Promise.race([
        pollUntil(someoneWaitsOnALock),
        later.then(() => {
          throw new Error('the second writer did not wait for the first');
        }),
      ]);
      if (end === 'commit') await runner.commitTransaction();
      else await runner.rollbackTransaction();
      return await later;
    } finally {
      await runner.release();
    }
  }

  describe('Outbox.addManyWithInserts that skips existing keys (wallet accounts: the event consumer and a lookup)', () => {
    const outbox = new Outbox();
    let insert: EntityInsert<GadgetEntity>;
    beforeAll(() => {
      insert = new EntityInsert(dataSource, GadgetEntity);
    });

    // A subject of no contract: the statement writes whatever event it is given.
    const row = (id: string, label: string): InsertWithEvent<GadgetEntity> => ({
      entity: { id, label },
      event: { subject: 'gadget.created', platformId: 'platform-1', resourceId: id, data: { id, label } } as unknown as NewEvent,
      guarded: true,
    });

    it('leaves a row out, with its event, when a transaction still open beside it inserted the key first', async () => {
      const second = await interleaved(
        async (manager) => expect(await outbox.addManyWithInserts(manager, insert, [row('g-1', 'first')], SKIP_EXISTING)).toEqual([true]),
        () => outbox.addManyWithInserts(dataSource, insert, [row('g-1', 'second'), row('g-2', 'second')], SKIP_EXISTING),
        'commit',
      );
      expect(second).toEqual([false, true]);
      expect(await dataSource.query(`SELECT id, label FROM gadget WHERE id IN ('g-1', 'g-2') ORDER BY id`)).toEqual([
        { id: 'g-1', label: 'first' },
        { id: 'g-2', label: 'second' },
      ]);
      const events: Array<{ label: string }> = await dataSource.query(`SELECT event -> 'data' ->> 'label' AS label FROM outbox_event ORDER BY seq`);
      expect(events.map((event) => event.label)).toEqual(['first', 'second']);
    });

    it('inserts the row when the transaction beside it rolled back', async () => {
      const second = await interleaved(
        (manager) => outbox.addManyWithInserts(manager, insert, [row('g-3', 'rolled back')], SKIP_EXISTING),
        () => outbox.addManyWithInserts(dataSource, insert, [row('g-3', 'kept')], SKIP_EXISTING),
        'rollback',
      );
      expect(second).toEqual([true]);
      expect(await dataSource.query(`SELECT label FROM gadget WHERE id = 'g-3'`)).toEqual([{ label: 'kept' }]);
    });
  });

  describe('IdempotencyStore.runOnce: two uses of one Idempotency-Key at once (a retry racing its original)', () => {
    let store: IdempotencyStore;
    beforeAll(() => {
      // The relay is only nudged after a commit; these cases write no events.
      store = new IdempotencyStore(new TransactionRunner(dataSource, { kick: () => undefined } as unknown as OutboxRelay));
    });
    const runs: string[] = [];
    const work = (answer: string) => async () => {
      runs.push(answer);
      return { answer };
    };

    it("answers the later one with the first one's answer once it commits, without running its work", async () => {
      runs.length = 0;
      const later = await interleaved(
        (manager) => manager.query(`INSERT INTO idempotency_record (platform_id, idempotency_key, request_hash, response) VALUES ('p', 'k-1', 'h', '{"answer":"first"}')`),
        () => store.runOnce('p', 'k-1', 'h', work('second')),
        'commit',
      );
      expect(later).toEqual({ answer: 'first' });
      expect(runs).toEqual([]);
    });

    it('runs the later one when the first one failed and rolled back', async () => {
      runs.length = 0;
      const later = await interleaved(
        (manager) => manager.query(`INSERT INTO idempotency_record (platform_id, idempotency_key, request_hash, response) VALUES ('p', 'k-2', 'h', NULL)`),
        () => store.runOnce('p', 'k-2', 'h', work('second')),
        'rollback',
      );
      expect(later).toEqual({ answer: 'second' });
      expect(runs).toEqual(['second']);
      expect(await store.replay(dataSource.manager, 'p', 'k-2', 'h')).toEqual({ answer: 'second' });
    });

    it('refuses the later one with 409 IDEMPOTENCY_KEY_REUSED when its request differs', async () => {
      const later = interleaved(
        (manager) => manager.query(`INSERT INTO idempotency_record (platform_id, idempotency_key, request_hash, response) VALUES ('p', 'k-3', 'h', '{"answer":"first"}')`),
        () => store.runOnce('p', 'k-3', 'another request', work('second')),
        'commit',
      );
      await expect(later).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'IDEMPOTENCY_KEY_REUSED' } });
    });
  });

  describe('underStartupLock (gateway replicas seeding the first sandbox platform)', () => {
    it('runs the second step only after the first one ended, however long the first takes', async () => {
      const order: string[] = [];
      let releaseFirst!: () => void;
      const firstMayEnd = new Promise<void>((resolve) => (releaseFirst = resolve));
      const first = underStartupLock(dataSource, 'concurrent-writers:seed', async () => {
        order.push('first started');
        await firstMayEnd;
        order.push('first ended');
      });
      await pollUntil(() => order.length === 1);
      const second = underStartupLock(dataSource, 'concurrent-writers:seed', async () => {
        order.push('second started');
      });
      await pollUntil(someoneWaitsOnALock);
      releaseFirst();
      await Promise.all([first, second]);
      expect(order).toEqual(['first started', 'first ended', 'second started']);
    });
  });

  describe("DiscoveriesRepository.replaceAll (external-accounts replicas starting together with an operator's list)", () => {
    it('lets the second replacement wait for the first and leaves exactly its own list', async () => {
      const discoveries = new DiscoveriesRepository(dataSource);
      const entry = (displayName: string) => ({ bankName: 'BBVA Mexico', displayName, country: 'MX', currency: 'MXN' });
      await dataSource.transaction((manager) => discoveries.replaceAll(manager, [entry('seeded')]));
      await interleaved(
        (manager) => discoveries.replaceAll(manager, [entry('first replica')]),
        () => dataSource.transaction((manager) => discoveries.replaceAll(manager, [entry('second replica')])),
        'commit',
      );
      expect(await discoveries.find({})).toEqual([entry('second replica')]);
    });
  });
});
