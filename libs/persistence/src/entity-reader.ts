import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * Reads one entity by exact column values with a statement built once, at construction:
 * no query building, alias resolution or hydration per call (TypeORM's `findOne` costs
 * several times the database round trip on a primary-key read). For hot read paths.
 * Rows come back in the entity's shape, as TypeORM would give them: `date` columns as
 * 'YYYY-MM-DD' strings and column transformers applied.
 */
export class EntityReader<T extends ObjectLiteral> {
  private readonly sql: string;
  private readonly lockedSql: string;
  private readonly transformed: ColumnMetadata[];
  /** `SELECT ... FROM table WHERE (key columns) IN `, completed per batch. */
  private readonly batchSqlPrefix: string;
  private readonly keyColumns: string[];
  /** Reads waiting for the next batch, by key; each key's waiters share one row. */
  private waiting = new Map<string, { values: unknown[]; waiters: Array<{ done: (row: T | null) => void; failed: (error: unknown) => void }> }>();
  private batchesInFlight = 0;
  private flushScheduled = false;

  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<T>,
    private readonly where: Array<keyof T & string>,
  ) {
    const metadata = dataSource.getMetadata(entity);
    const select = metadata.columns
      .map((column) => `${quote(column.databaseName)}${column.type === 'date' ? '::text' : ''} AS ${quote(column.propertyName)}`)
      .join(', ');
    this.keyColumns = where.map((property) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${metadata.name} has no column ${property}`);
      return quote(column.databaseName);
    });
    const table = metadata.tablePath.split('.').map(quote).join('.');
    const conditions = this.keyColumns.map((column, index) => `${column} = $${index + 1}`);
    this.sql = `SELECT ${select} FROM ${table} WHERE ${conditions.join(' AND ')} LIMIT 1`;
    this.lockedSql = `${this.sql} FOR UPDATE`;
    this.batchSqlPrefix = `SELECT ${select} FROM ${table} WHERE (${this.keyColumns.join(', ')}) IN `;
    this.transformed = metadata.columns.filter((column) => column.transformer);
  }

  /**
   * `findOne` outside any transaction, for the hottest reads: the reads that arrive while a batch
   * is being read (or during one turn of the event loop) share one statement, and reads of the
   * same key share its row. A statement per read costs the database and the socket far more than
   * the row does. Keys are matched by their text form, so the key columns must be text.
   */
  findOneBatched(values: unknown[]): Promise<T | null> {
    return new Promise<T | null>((done, failed) => {
      const key = JSON.stringify(values.map(String));
      const entry = this.waiting.get(key);
      if (entry) entry.waiters.push({ done, failed });
      else this.waiting.set(key, { values, waiters: [{ done, failed }] });
      this.scheduleBatch();
    });
  }

  /** The row whose `where` columns equal `values` (in order), or null. */
  findOne(runner: DataSource | EntityManager, values: unknown[]): Promise<T | null> {
    return this.read(runner, this.sql, values);
  }

  /** Same, locking the row for the rest of `manager`'s transaction. */
  findOneForUpdate(manager: EntityManager, values: unknown[]): Promise<T | null> {
    return this.read(manager, this.lockedSql, values);
  }

  private scheduleBatch(): void {
    if (this.flushScheduled || this.batchesInFlight >= MAX_BATCHES_IN_FLIGHT || this.waiting.size === 0) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const batch = [...this.waiting.values()].slice(0, MAX_BATCH);
      for (const entry of batch) this.waiting.delete(JSON.stringify(entry.values.map(String)));
      this.batchesInFlight += 1;
      void this.readBatch(batch).finally(() => {
        this.batchesInFlight -= 1;
        this.scheduleBatch();
      });
      this.scheduleBatch();
    });
  }

  private async readBatch(batch: Array<{ values: unknown[]; waiters: Array<{ done: (row: T | null) => void; failed: (error: unknown) => void }> }>): Promise<void> {
    const width = this.keyColumns.length;
    const tuples = batch.map((_, row) => `(${this.keyColumns.map((__, column) => `$${row * width + column + 1}`).join(', ')})`);
    let rows: T[];
    try {
      rows = await this.dataSource.query(`${this.batchSqlPrefix}(${tuples.join(', ')})`, batch.flatMap((entry) => entry.values));
    } catch (error) {
      for (const entry of batch) for (const waiter of entry.waiters) waiter.failed(error);
      return;
    }
    const byKey = new Map(rows.map((row) => [JSON.stringify(this.where.map((property) => String(row[property]))), row]));
    for (const entry of batch) {
      const row = byKey.get(JSON.stringify(entry.values.map(String)));
      // Callers own what they get: every waiter but the first gets its own copy of the raw row.
      const copies = entry.waiters.map((_, index) => (row && index > 0 ? structuredClone(row) : row));
      entry.waiters.forEach((waiter, index) => waiter.done(copies[index] ? this.hydrate(copies[index]) : null));
    }
  }

  private async read(runner: DataSource | EntityManager, sql: string, values: unknown[]): Promise<T | null> {
    const rows: T[] = await runner.query(sql, values);
    const row = rows[0];
    return row ? this.hydrate(row) : null;
  }

  /** Applies the entity's column transformers to a raw row, as TypeORM would. */
  private hydrate(row: T): T {
    for (const column of this.transformed) {
      const transformers = Array.isArray(column.transformer) ? column.transformer : [column.transformer!];
      let value: unknown = row[column.propertyName];
      for (const transformer of [...transformers].reverse()) value = transformer.from(value);
      (row as Record<string, unknown>)[column.propertyName] = value;
    }
    return row;
  }
}

/** Keys read by one batched statement at most. */
const MAX_BATCH = 100;
/** Batched statements at once: while they run, the next batch fills. */
const MAX_BATCHES_IN_FLIGHT = 2;

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
