import { DataSource } from 'typeorm';
import { closePgliteHosts, serviceDataSourceOptions } from '@paykit/persistence';
import { RuntimeConfig } from '@paykit/runtime';
import { freshPgliteDataDir, removeDataDir } from '@paykit/testing';
import { CreateSandboxFaults1765100000000 } from '../migrations/1765100000000-CreateSandboxFaults';
import { SandboxFaultsRepository } from './sandbox-faults.repository';

const MINE = 'Platform:mine';
const THEIRS = 'Platform:theirs';

/** The fault table's rules on PostgreSQL (PGlite): a fault of N takes exactly N calls, its platform's only, oldest fault first. */
describe(SandboxFaultsRepository.name, () => {
  let dataDir: string;
  let dataSource: DataSource;
  let repository: SandboxFaultsRepository;

  beforeAll(async () => {
    dataDir = freshPgliteDataDir();
    const config = { mode: 'embedded', sandboxTimeScale: 1, embeddedDataDir: dataDir } as RuntimeConfig;
    dataSource = new DataSource(serviceDataSourceOptions(config, { service: 'gateway', entities: [], migrations: [CreateSandboxFaults1765100000000] }));
    await dataSource.initialize();
    await dataSource.runMigrations();
    repository = new SandboxFaultsRepository(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await closePgliteHosts();
    removeDataDir(dataDir);
  });

  describe('take', () => {
    it('takes exactly `count` calls however many arrive together, and only its operation', async () => {
      const fault = await repository.create(MINE, { operation: 'POST /quotes/{quoteId}/execute', effect: 'ERROR', status: 503, count: 3 });
      const taken = await Promise.all(Array.from({ length: 10 }, () => repository.take(MINE, 'POST /quotes/{quoteId}/execute', '/quotes/Quote:1/execute')));
      expect(taken.filter((one) => one?.id === fault.id)).toHaveLength(3);
      expect(await repository.take(MINE, 'GET /quotes/{quoteId}', '/quotes/Quote:1')).toBeUndefined();
      expect((await repository.list(MINE))[0]).toMatchObject({ id: fault.id, remaining: 0, count: 3 });
      expect(await repository.hasActive(MINE)).toBe(false);
    });

    it("matches a path prefix for any method, oldest fault first, and never another platform's call", async () => {
      const prefix = await repository.create(MINE, { pathPrefix: '/customers', effect: 'TIMEOUT', delayMs: 0, count: 1 });
      const exact = await repository.create(MINE, { operation: 'GET /customers', effect: 'ERROR', status: 500, count: 1 });
      expect(await repository.take(THEIRS, 'GET /customers', '/customers')).toBeUndefined();
      expect((await repository.take(MINE, 'GET /customers', '/customers'))?.id).toBe(prefix.id);
      expect((await repository.take(MINE, 'GET /customers', '/customers'))?.id).toBe(exact.id);
      expect(await repository.take(MINE, 'DELETE /customers/{customerId}', '/customers/Customer:1')).toBeUndefined();
      expect(await repository.delete(THEIRS, prefix.id)).toBe(false);
      expect(await repository.delete(MINE, prefix.id)).toBe(true);
    });
  });
});
