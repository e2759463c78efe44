import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { freshPgliteDataDir, removeDataDir } from '@paykit/testing';
import { RuntimeConfig } from '@paykit/runtime';
import { serviceDataSourceOptions } from './data-source';
import { EntityInsert } from './entity-insert';
import { closePgliteHosts } from './pglite-host';

@Entity({ name: 'gadget' })
class GadgetEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'jsonb', nullable: true })
  details!: { colour: string } | null;

  @Column({ name: 'public_key', type: 'bytea', nullable: true })
  publicKey!: Buffer | null;

  @Column({ name: 'made_at', type: 'timestamptz' })
  madeAt!: Date;

  @Column({ type: 'bigint', nullable: true })
  counter!: string | null;
}

describe('EntityInsert', () => {
  let dataDir: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    dataDir = freshPgliteDataDir();
    const config = { mode: 'embedded', sandboxTimeScale: 1, embeddedDataDir: dataDir } as RuntimeConfig;
    dataSource = new DataSource(serviceDataSourceOptions(config, { service: 'customers', entities: [GadgetEntity], migrations: [] }));
    await dataSource.initialize();
    await dataSource.query(`CREATE TABLE gadget (id text PRIMARY KEY, details jsonb, public_key bytea, made_at timestamptz NOT NULL, counter bigint)`);
  }, 60_000);

  afterAll(async () => {
    await dataSource.destroy();
    await closePgliteHosts();
    removeDataDir(dataDir);
  });

  it('inserts many rows from one parameter, every column type as TypeORM would store it', async () => {
    const insert = new EntityInsert(dataSource, GadgetEntity);
    const madeAt = new Date('2026-11-30T03:00:00.123Z');
    const gadgets: GadgetEntity[] = [
      { id: 'G1', details: { colour: 'red' }, publicKey: Buffer.from([0, 1, 254, 255]), madeAt, counter: '9007199254740993' },
      { id: 'G2', details: null, publicKey: null, madeAt, counter: null },
    ];
    await dataSource.query(insert.manySql, [insert.records(gadgets)]);
    const stored = await dataSource.getRepository(GadgetEntity).find({ order: { id: 'ASC' } });
    expect(stored).toEqual(gadgets);
  });
});
