import { DataSource, DataSourceOptions } from 'typeorm';

/**
 * The advisory lock every process takes around its migrations: one name for all services, since
 * advisory locks are scoped to the database and each service has its own. Its key,
 * `hashtext('paykit:migrations')`, is the one earlier releases took by number (-742693496), so a
 * rolling upgrade's old and new replicas still take turns.
 */
const MIGRATION_LOCK_NAME = 'paykit:migrations';

/**
 * Opens a service's database and brings its schema up to date, exactly once however many
 * replicas start together: on PostgreSQL (distributed mode) the migrations run while this process
 * holds a session-level advisory lock on a connection of its own, so the others wait for it and
 * then find nothing left to run. A process that dies holding the lock loses it with its session.
 * Embedded mode (PGlite, one process) migrates as TypeORM's `migrationsRun` says.
 */
export async function openServiceDataSource(options: DataSourceOptions): Promise<DataSource> {
  const lockedMigrations = sharedByProcesses(options) && options.migrationsRun === true;
  const dataSource = new DataSource(lockedMigrations ? { ...options, migrationsRun: false } : options);
  await dataSource.initialize();
  if (lockedMigrations) {
    try {
      await runMigrationsOnce(dataSource);
    } catch (error) {
      await dataSource.destroy().catch(() => undefined);
      throw error;
    }
  }
  return dataSource;
}

/** Runs the pending migrations under the advisory lock (each in its own transaction, as configured). */
export async function runMigrationsOnce(dataSource: DataSource): Promise<void> {
  await underStartupLock(dataSource, MIGRATION_LOCK_NAME, () => dataSource.runMigrations({ transaction: dataSource.options.migrationsTransactionMode ?? 'each' }));
}

/**
 * Runs a start-up step (seeding a first platform, say) once at a time however many replicas start
 * together: on PostgreSQL under a session-level advisory lock named `name`, so the others wait and
 * then find the step done. Embedded mode (PGlite, one process) just runs it.
 */
export async function underStartupLock<T>(dataSource: DataSource, name: string, step: () => Promise<T>): Promise<T> {
  if (!sharedByProcesses(dataSource.options)) return step();
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      return await step();
    } finally {
      await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  } finally {
    await lock.release();
  }
}

/** A PostgreSQL server (distributed mode), as opposed to the in-process PGlite that embedded mode passes as the driver. */
function sharedByProcesses(options: DataSourceOptions): boolean {
  return options.type === 'postgres' && !('driver' in options && options.driver);
}
