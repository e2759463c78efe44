import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { freshPgliteDataDir, removeDataDir } from '@paykit/testing';
import { RuntimeConfig } from '@paykit/runtime';
import { serviceDataSourceOptions } from './data-source';
import { EntityReader } from './entity-reader';
import { closePgliteHosts } from './pglite-host';

@Entity({ name: 'widget' })
class WidgetEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ type: 'jsonb' })
  details!: { colour: string };

  @Column({ name: 'made_on', type: 'date' })
  madeOn!: string;

  @Column({ type: 'text', transformer: { to: (value: string[]) => value.join(','), from: (value: string) => value.split(',') } })
  tags!: string[];
}

describe('EntityReader', () => {
  let dataDir: string;
  let dataSource: DataSource;
  let reader: EntityReader<WidgetEntity>;

  beforeAll(async () => {
    dataDir = freshPgliteDataDir();
    const config = { mode: 'embedded', sandboxTimeScale: 1, embeddedDataDir: dataDir } as RuntimeConfig;
    dataSource = new DataSource(serviceDataSourceOptions(config, { service: 'customers', entities: [WidgetEntity], migrations: [] }));
    await dataSource.initialize();
    await dataSource.query(`CREATE TABLE widget (id text PRIMARY KEY, platform_id text NOT NULL, details jsonb NOT NULL, made_on date NOT NULL, tags text NOT NULL)`);
    await dataSource.query(
      `INSERT INTO widget VALUES ('W1', 'P1', '{"colour":"red"}', '2026-01-02', 'a,b'), ('W2', 'P1', '{"colour":"blue"}', '2026-03-04', 'c'), ('W3', 'P2', '{"colour":"green"}', '2026-05-06', 'd')`,
    );
    reader = new EntityReader(dataSource, WidgetEntity, ['platformId', 'id']);
  }, 60_000);

  afterAll(async () => {
    await dataSource.destroy();
    await closePgliteHosts();
    removeDataDir(dataDir);
  });

  it('reads one row in the entity shape: dates as YYYY-MM-DD, transformers applied', async () => {
    expect(await reader.findOne(dataSource, ['P1', 'W1'])).toEqual({ id: 'W1', platformId: 'P1', details: { colour: 'red' }, madeOn: '2026-01-02', tags: ['a', 'b'] });
    expect(await reader.findOne(dataSource, ['P2', 'W1'])).toBeNull();
  });

  it("answers concurrent batched reads each with its own row, another platform's key with null", async () => {
    const reads = await Promise.all([
      reader.findOneBatched(['P1', 'W1']),
      reader.findOneBatched(['P1', 'W2']),
      reader.findOneBatched(['P1', 'W3']),
      reader.findOneBatched(['P2', 'W3']),
      reader.findOneBatched(['P1', 'missing']),
    ]);
    expect(reads.map((row) => row?.id ?? null)).toEqual(['W1', 'W2', null, 'W3', null]);
    expect(reads[0]).toEqual({ id: 'W1', platformId: 'P1', details: { colour: 'red' }, madeOn: '2026-01-02', tags: ['a', 'b'] });
  });

  it('gives every reader of the same key its own copy, transformed once', async () => {
    const [first, second] = await Promise.all([reader.findOneBatched(['P1', 'W1']), reader.findOneBatched(['P1', 'W1'])]);
    expect(first).toEqual(second);
    expect(first).not.toBe(second);
    expect(first!.details).not.toBe(second!.details);
    expect(second!.tags).toEqual(['a', 'b']);
  });

  it('reads more keys than one statement takes', async () => {
    const ids = Array.from({ length: 250 }, (_, i) => (i % 2 === 0 ? 'W1' : `none-${i}`));
    const reads = await Promise.all(ids.map((id) => reader.findOneBatched(['P1', id])));
    expect(reads.filter(Boolean)).toHaveLength(125);
  });
});
