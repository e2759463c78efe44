import { DataSource } from 'typeorm';
import { closePgliteHosts, serviceDataSourceOptions } from '@paykit/persistence';
import { RuntimeConfig } from '@paykit/runtime';
import { freshPgliteDataDir, removeDataDir } from '@paykit/testing';
import { CUSTOMERS_DATABASE } from '../app.module';
import { CustomerEntity } from './entities/customer.entity';
import { CustomersRepository } from './customers.repository';

const MINE = 'Platform:mine';
const THEIRS = 'Platform:theirs';

/** Ids sort by creation (UUIDv7): the n-th customer made here gets the n-th id. */
const idOf = (n: number): string => `Customer:0190f1c2-7a6b-7cc1-9a2e-${String(n).padStart(12, '0')}`;

function customer(n: number, platformId: string, deleted = false): CustomerEntity {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n));
  return Object.assign(new CustomerEntity(), {
    id: idOf(n),
    platformId,
    platformCustomerId: `customer-${n}`,
    customerType: 'INDIVIDUAL',
    fullName: `Customer ${n}`,
    umaAddress: `$customer${n}@paykit.test`,
    kycStatus: 'APPROVED',
    deletedAt: deleted ? at : null,
    createdAt: at,
    updatedAt: at,
  });
}

/**
 * The repository rules every customers endpoint relies on, pinned against the service's real
 * migrations on PGlite (no stack, no HTTP): another platform's customer does not exist here, and a
 * cursor walk visits each of a platform's customers once, newest first, whatever other platforms
 * write between pages.
 */
describe('CustomersRepository on PostgreSQL (PGlite): tenancy and cursors', () => {
  let dataDir: string;
  let dataSource: DataSource;
  let repository: CustomersRepository;

  beforeAll(async () => {
    dataDir = freshPgliteDataDir();
    const config = { mode: 'embedded', sandboxTimeScale: 1, embeddedDataDir: dataDir } as RuntimeConfig;
    dataSource = new DataSource(serviceDataSourceOptions(config, CUSTOMERS_DATABASE));
    await dataSource.initialize();
    repository = new CustomersRepository(dataSource);
    // Interleaved by id: mine are 1, 3, 5, ... 13 (7 deleted), theirs 2, 4, ... 10.
    const rows = [1, 3, 5, 7, 9, 11, 13].map((n) => customer(n, MINE, n === 7)).concat([2, 4, 6, 8, 10].map((n) => customer(n, THEIRS)));
    await repository.insertMany(dataSource.manager, rows);
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await closePgliteHosts();
    removeDataDir(dataDir);
  });

  it("never finds another platform's customer by its id, locked or not", async () => {
    expect((await repository.findById(MINE, idOf(3)))?.platformCustomerId).toBe('customer-3');
    expect(await repository.findById(THEIRS, idOf(3))).toBeNull();
    expect(await dataSource.transaction((manager) => repository.findByIdForUpdate(manager, THEIRS, idOf(3)))).toBeNull();
  });

  it("lists only the platform's own customers, newest first, counting only its own", async () => {
    const mine = await repository.list(MINE, {}, 100);
    expect(mine.rows.map((row) => row.id)).toEqual([13, 11, 9, 5, 3, 1].map(idOf));
    expect(mine.totalCount).toBe(6);
    const theirs = await repository.list(THEIRS, { platformCustomerId: 'customer-3' }, 100);
    expect(theirs).toEqual({ rows: [], totalCount: 0 });
  });

  it('leaves deleted customers out unless asked for', async () => {
    expect((await repository.list(MINE, { includeDeleted: true }, 100)).rows.map((row) => row.id)).toContain(idOf(7));
  });

  it('walks every page by cursor exactly once while another platform writes between pages', async () => {
    const seen: string[] = [];
    let beforeId: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const { rows, totalCount } = await repository.list(MINE, { beforeId }, 2);
      expect(totalCount).toBe(6);
      seen.push(...rows.map((row) => row.id));
      if (rows.length < 2) break;
      beforeId = rows[rows.length - 1].id;
      // A newer customer of another platform between pages: never part of this walk.
      await repository.insertMany(dataSource.manager, [customer(100 + page, THEIRS)]);
    }
    expect(seen).toEqual([13, 11, 9, 5, 3, 1].map(idOf));
  });
});
