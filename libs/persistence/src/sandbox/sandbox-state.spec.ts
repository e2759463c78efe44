import { DataSource } from 'typeorm';
import { RuntimeConfig } from '@paykit/runtime';
import { freshPgliteDataDir, removeDataDir } from '@paykit/testing';
import { Clock } from '../clock/clock';
import { serviceDataSourceOptions } from '../data-source';
import { closePgliteHosts } from '../pglite-host';
import { SandboxStateStore } from './sandbox-state';

const MINE = 'Platform:mine';
const THEIRS = 'Platform:theirs';

/**
 * A platform's part of a service's state, on PostgreSQL (PGlite) with tables made for the case: a
 * table with `platform_id`, one hanging off it by a foreign key and one off that (no platform
 * column), an identity column and a global table; beside the service's plumbing tables. `box` is
 * also a built-in type's name, on purpose.
 */
describe(SandboxStateStore.name, () => {
  let dataDir: string;
  let dataSource: DataSource;
  let store: SandboxStateStore;

  const names = async (table: string, platformId?: string): Promise<string[]> =>
    (await dataSource.query<{ name: string }[]>(`SELECT name FROM ${table}${platformId ? ' WHERE platform_id = $1' : ''} ORDER BY name`, platformId ? [platformId] : [])).map(
      (row) => row.name,
    );

  beforeAll(async () => {
    dataDir = freshPgliteDataDir();
    const config = { mode: 'embedded', sandboxTimeScale: 1, embeddedDataDir: dataDir } as RuntimeConfig;
    dataSource = new DataSource(serviceDataSourceOptions(config, { service: 'cards', entities: [], migrations: [] }));
    await dataSource.initialize();
    await dataSource.query(
      `CREATE TABLE box (id text PRIMARY KEY, platform_id text NOT NULL, name text NOT NULL, amount bigint NOT NULL, seq bigint GENERATED ALWAYS AS IDENTITY)`,
    );
    await dataSource.query(`CREATE TABLE item (id text PRIMARY KEY, box_id text NOT NULL REFERENCES box (id), name text NOT NULL)`);
    await dataSource.query(`CREATE TABLE part (item_id text NOT NULL REFERENCES item (id), name text NOT NULL)`);
    await dataSource.query(`CREATE TABLE colour (name text PRIMARY KEY)`);
    await dataSource.query(`INSERT INTO colour VALUES ('red')`);
    for (const [platformId, prefix] of [
      [MINE, 'm'],
      [THEIRS, 't'],
    ]) {
      await dataSource.query(`INSERT INTO box (id, platform_id, name, amount) VALUES ($1, $2, $3, 9007199254740993)`, [`${prefix}-box`, platformId, `${prefix} box`]);
      await dataSource.query(`INSERT INTO item VALUES ($1, $2, $3)`, [`${prefix}-item`, `${prefix}-box`, `${prefix} item`]);
      await dataSource.query(`INSERT INTO part VALUES ($1, $2)`, [`${prefix}-item`, `${prefix} part`]);
    }
    store = new SandboxStateStore(dataSource, new Clock(dataSource));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await closePgliteHosts();
    removeDataDir(dataDir);
  });

  describe('export', () => {
    it("reads the platform's rows of every state table, children through their parents, and nothing else", async () => {
      const state = await store.export(MINE);
      expect(Object.keys(state.tables).sort()).toEqual(['box', 'item', 'part']);
      expect(JSON.parse(state.tables.part)).toEqual([{ item_id: 'm-item', name: 'm part' }]);
      // Numbers travel as text: a bigint past 2^53 keeps every digit.
      expect(state.tables.box).toContain('9007199254740993');
    });
  });

  describe('replace', () => {
    it("swaps the platform's rows for a saved state (identity values and big numbers kept), leaving other platforms and global tables alone", async () => {
      const saved = await store.export(MINE);
      await dataSource.query(`INSERT INTO box (id, platform_id, name, amount) VALUES ('m-box-2', $1, 'm second box', 1)`, [MINE]);
      await dataSource.query(`UPDATE item SET name = 'm renamed' WHERE id = 'm-item'`);

      await store.replace(MINE, saved);
      expect(await names('box', MINE)).toEqual(['m box']);
      expect(await names('item')).toEqual(['m item', 't item']);
      expect(await names('part')).toEqual(['m part', 't part']);
      expect(await store.export(MINE)).toEqual(saved);
      expect(await names('colour')).toEqual(['red']);
    });

    it('with an empty state deletes every row of the platform (a reset), children first', async () => {
      const theirs = await store.export(THEIRS);
      await store.replace(MINE, { tables: {} });
      expect(await store.export(MINE)).toEqual({ tables: {} });
      expect(await store.export(THEIRS)).toEqual(theirs);
    });

    it('is all or nothing: a state that breaks a constraint changes nothing', async () => {
      const before = await store.export(THEIRS);
      const orphan = JSON.stringify([{ id: 't-orphan', box_id: 'no-such-box', name: 'orphan' }]);
      await expect(store.replace(THEIRS, { tables: { ...before.tables, item: orphan } })).rejects.toThrow();
      expect(await store.export(THEIRS)).toEqual(before);
    });
  });
});
