import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { NewEvent } from '@paykit/contracts';
import { EntityInsert, InsertGuard, InsertWithEvent, Outbox } from '@paykit/persistence';
import { pollUntil, POSTGRES_ADMIN_URL } from '@paykit/testing';

@Entity({ name: 'gadget' })
class GadgetEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  label!: string;
}

const SKIP_EXISTING: InsertGuard = { skipExisting: true };

/**
 * Inserts with their events on the real PostgreSQL, two sessions at once: what the in-process
 * database (one session) never shows. Wallet accounts are provisioned this way, by the event
 * consumer and by a lookup that reaches the account before its event.
 */
describe('Outbox.addManyWithInserts under a racing insert of the same key', () => {
  const database = `paykit_outbox_race_${randomBytes(4).toString('hex')}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  let admin: Client;
  let dataSource: DataSource;
  let insert: EntityInsert<GadgetEntity>;
  const outbox = new Outbox();

  beforeAll(async () => {
    admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    dataSource = new DataSource({ type: 'postgres', url: url.toString(), entities: [GadgetEntity], poolSize: 4 });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE gadget (id text PRIMARY KEY, label text NOT NULL)');
    await dataSource.query('CREATE TABLE outbox_event (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id uuid NOT NULL, subject text NOT NULL, event jsonb NOT NULL)');
    insert = new EntityInsert(dataSource, GadgetEntity);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  // A subject of no contract: the statement writes whatever event it is given.
  const row = (id: string, label: string): InsertWithEvent<GadgetEntity> => ({
    entity: { id, label },
    event: { subject: 'gadget.created', platformId: 'platform-1', resourceId: id, data: { id, label } } as unknown as NewEvent,
    guarded: true,
  });

  /** True once a session of the test database waits for a lock (the second insert, on the first one's key). */
  const someoneWaitsOnALock = async (): Promise<boolean> =>
    (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [database])).rowCount! > 0;

  it('leaves the row out, with its event, when a transaction still open beside it inserted the key first', async () => {
    const first = dataSource.createQueryRunner();
    await first.connect();
    await first.startTransaction();
    try {
      expect(await outbox.addManyWithInserts(first.manager, insert, [row('g-1', 'first')], SKIP_EXISTING)).toEqual([true]);
      const second = outbox.addManyWithInserts(dataSource, insert, [row('g-1', 'second'), row('g-2', 'second')], SKIP_EXISTING);
      await pollUntil(someoneWaitsOnALock);
      await first.commitTransaction();
      expect(await second).toEqual([false, true]);
    } finally {
      await first.release();
    }
    expect(await dataSource.query('SELECT id, label FROM gadget ORDER BY id')).toEqual([
      { id: 'g-1', label: 'first' },
      { id: 'g-2', label: 'second' },
    ]);
    const events: Array<{ label: string }> = await dataSource.query(`SELECT event -> 'data' ->> 'label' AS label FROM outbox_event ORDER BY seq`);
    expect(events.map((event) => event.label)).toEqual(['first', 'second']);
  });

  it('inserts the row when the transaction beside it rolled back', async () => {
    const first = dataSource.createQueryRunner();
    await first.connect();
    await first.startTransaction();
    try {
      await outbox.addManyWithInserts(first.manager, insert, [row('g-3', 'rolled back')], SKIP_EXISTING);
      const second = outbox.addManyWithInserts(dataSource, insert, [row('g-3', 'kept')], SKIP_EXISTING);
      await pollUntil(someoneWaitsOnALock);
      await first.rollbackTransaction();
      expect(await second).toEqual([true]);
    } finally {
      await first.release();
    }
    expect(await dataSource.query(`SELECT label FROM gadget WHERE id = 'g-3'`)).toEqual([{ label: 'kept' }]);
  });
});
