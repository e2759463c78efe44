import type { Logger as TypeOrmLogger } from 'typeorm';
import { rootLogger, ServiceName } from '@paykit/runtime';

/**
 * SQLSTATE classes a caller handles as an answer, not a fault: integrity constraint violations
 * (23: a duplicate is a 409 or an idempotent replay) and transaction rollbacks (40: retried).
 */
const EXPECTED_FAILURE_CLASSES = ['23', '40'];
/** `refuse_statement`'s raise (P0001): a one-statement command saying no (insufficient funds), answered as such. */
const EXPECTED_FAILURE_STATES = ['P0001'];

function sqlStateOf(error: unknown): string | undefined {
  const code = (error as { driverError?: { code?: unknown }; code?: unknown })?.driverError?.code ?? (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * TypeORM's logger for every service database (PostgreSQL and PGlite alike): lines go through
 * the application logger, so LOG_LEVEL and the redaction list apply, and a statement's bound
 * parameters are never written — only how many there were.
 */
export class DatabaseLogger implements TypeOrmLogger {
  constructor(private readonly service: ServiceName) {}

  // Resolved per line: tests and `main` may replace the root logger after the data source exists.
  private get logger() {
    return rootLogger().child({ service: this.service, component: 'database' });
  }

  /** Called for every statement, so it costs one level check unless trace is on. */
  logQuery(query: string, parameters?: unknown[]): void {
    if (!rootLogger().isLevelEnabled('trace')) return;
    this.logger.trace({ query, parameterCount: parameters?.length ?? 0 }, 'query');
  }

  logQueryError(error: string | Error, query: string, parameters?: unknown[]): void {
    const sqlState = sqlStateOf(error);
    const expected = sqlState !== undefined && (EXPECTED_FAILURE_CLASSES.includes(sqlState.slice(0, 2)) || EXPECTED_FAILURE_STATES.includes(sqlState));
    const message = typeof error === 'string' ? error : error.message;
    const line = { query, parameterCount: parameters?.length ?? 0, sqlState };
    if (expected) this.logger.debug(line, `query failed: ${message}`);
    else this.logger.warn(line, `query failed: ${message}`);
  }

  logQuerySlow(time: number, query: string, parameters?: unknown[]): void {
    this.logger.warn({ query, parameterCount: parameters?.length ?? 0, ms: time }, 'slow query');
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.info(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}
