import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { RuntimeConfig } from '@paykit/runtime';
import { freshPgliteDataDir, removeDataDir } from '@paykit/testing';
import { amountColumn, amountFromColumn, amountToColumn } from './amount-column';
import { serviceDataSourceOptions } from './data-source';
import { EntityInsert } from './entity-insert';
import { EntityReader } from './entity-reader';
import { closePgliteHosts } from './pglite-host';

const LARGEST = 2n ** 63n - 1n;
const SMALLEST = -LARGEST - 1n;

@Entity({ name: 'purse' })
class PurseEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'bigint', transformer: amountColumn })
  amount!: bigint;

  @Column({ name: 'limit_amount', type: 'bigint', nullable: true, transformer: amountColumn })
  limitAmount!: bigint | null;
}

describe('amountColumn', () => {
  it.each([0n, -1n, -250n, 1n, 12_345n, LARGEST, SMALLEST])('round-trips %p exactly', (amount) => {
    const stored: unknown = amountColumn.to(amount);
    expect(stored).toBe(amount.toString());
    expect(amountColumn.from(stored)).toBe(amount);
  });

  it('reads the text a driver gives for bigint 2^63-1 without rounding', () => {
    expect(amountColumn.from('9223372036854775807')).toBe(LARGEST);
    expect(amountFromColumn('-9223372036854775808')).toBe(SMALLEST);
    expect(amountToColumn(LARGEST)).toBe('9223372036854775807');
  });

  it('keeps null (a nullable column) and undefined (a property left out of an update) as they are', () => {
    expect(amountColumn.to(null)).toBeNull();
    expect(amountColumn.to(undefined)).toBeUndefined();
    expect(amountColumn.from(null)).toBeNull();
  });

  describe('through PostgreSQL', () => {
    let dataDir: string;
    let dataSource: DataSource;

    beforeAll(async () => {
      dataDir = freshPgliteDataDir();
      const config = { mode: 'embedded', sandboxTimeScale: 1, embeddedDataDir: dataDir } as RuntimeConfig;
      dataSource = new DataSource(serviceDataSourceOptions(config, { service: 'payments', entities: [PurseEntity], migrations: [] }));
      await dataSource.initialize();
      await dataSource.query(`CREATE TABLE purse (id text PRIMARY KEY, amount bigint NOT NULL, limit_amount bigint)`);
    }, 60_000);

    afterAll(async () => {
      await dataSource.destroy();
      await closePgliteHosts();
      removeDataDir(dataDir);
    });

    it('stores and reads the extremes, zero and null exactly through TypeORM, EntityInsert and EntityReader', async () => {
      const purses: PurseEntity[] = [
        { id: 'largest', amount: LARGEST, limitAmount: null },
        { id: 'smallest', amount: SMALLEST, limitAmount: 0n },
        { id: 'negative', amount: -42n, limitAmount: LARGEST },
      ];
      await dataSource.manager.save(PurseEntity, purses[0]);
      const insert = new EntityInsert(dataSource, PurseEntity);
      await dataSource.query(insert.sql, insert.params(purses[1]));
      // The recordset form travels as JSON, which a bigint would not survive.
      await dataSource.query(`INSERT INTO purse (${insert.columnList}) SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(${insert.recordsetColumns})`, [
        JSON.stringify([insert.record(purses[2])]),
      ]);
      expect(await dataSource.manager.find(PurseEntity, { order: { id: 'ASC' } })).toEqual([purses[0], purses[2], purses[1]]);
      const reader = new EntityReader(dataSource, PurseEntity, ['id']);
      expect(await reader.findOne(dataSource, ['smallest'])).toEqual(purses[1]);
      expect(await reader.findOneBatched(['negative'])).toEqual(purses[2]);
    });
  });
});
