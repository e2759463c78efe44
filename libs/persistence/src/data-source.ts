import { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { RuntimeConfig, ServiceName } from '@paykit/runtime';
import { DatabaseLogger } from './database-logger';
import { pgliteDriver } from './pglite-pool';
import { pgliteHost } from './pglite-host';
import { PreparingClient } from './prepared-statements';
import { OutboxEventEntity } from './outbox/outbox-event.entity';
import { ScheduledJobEntity } from './scheduler/scheduled-job.entity';
import { IdempotencyRecordEntity } from './idempotency/idempotency-record.entity';
import { CreatePlumbingTables1732233600000 } from './migrations/1732233600000-CreatePlumbingTables';
import { DeletePublishedOutboxEvents1764000000000 } from './migrations/1764000000000-DeletePublishedOutboxEvents';
import { CreatePlatformClocks1764500000000 } from './migrations/1764500000000-CreatePlatformClocks';
import { AddTraceContext1766200000000 } from './migrations/1766200000000-AddTraceContext';
import { PlatformClockEntity } from './clock/platform-clock.entity';
import { CreateDeadLetters1764310000000 } from './migrations/1764310000000-CreateDeadLetters';
import { DeadLetterEntity } from './dead-letters/dead-letter.entity';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type EntityList = MixedList<Function | string | EntitySchema>;
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type MigrationList = Function[];

export interface ServiceDatabaseOptions {
  service: ServiceName;
  entities: EntityList;
  /** The service's own migrations, oldest first; the shared plumbing tables come before them. */
  migrations: MigrationList;
}

/** Entities every service has: its outbox, its scheduled jobs, its idempotency records, its dead letters and its platforms' clocks. */
export const PLUMBING_ENTITIES = [OutboxEventEntity, ScheduledJobEntity, IdempotencyRecordEntity, DeadLetterEntity, PlatformClockEntity];

/** Schema name of a service inside the shared embedded database. */
export function embeddedSchemaOf(service: ServiceName): string {
  return service.replace(/-/g, '_');
}

/**
 * One service's database: its own PostgreSQL database in distributed mode, its own schema
 * of the process's PGlite in embedded mode. Same entities and migrations either way;
 * migrations run at start and `synchronize` is never on.
 */
export function serviceDataSourceOptions(config: RuntimeConfig, options: ServiceDatabaseOptions): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities: [...PLUMBING_ENTITIES, ...(options.entities as unknown[])] as EntityList,
    migrations: [
      CreatePlumbingTables1732233600000,
      DeletePublishedOutboxEvents1764000000000,
      CreateDeadLetters1764310000000,
      CreatePlatformClocks1764500000000,
      AddTraceContext1766200000000,
      ...options.migrations,
    ],
    migrationsRun: true,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    // Through the application logger (LOG_LEVEL, redaction), never TypeORM's console printer,
    // which writes a failing statement's parameters in clear whatever the level.
    logger: new DatabaseLogger(options.service),
    applicationName: `paykit-${options.service}`,
  };
  if (config.mode === 'embedded') {
    return {
      ...common,
      driver: pgliteDriver(),
      extra: { pgliteHost: pgliteHost(config.embeddedDataDir), schema: embeddedSchemaOf(options.service) },
    };
  }
  const url = config.databaseUrls[options.service];
  if (!url) throw new Error(`No database URL configured for ${options.service}`);
  return { ...common, url, poolSize: 20, extra: { max: 20, idleTimeoutMillis: 30000, Client: PreparingClient } };
}
