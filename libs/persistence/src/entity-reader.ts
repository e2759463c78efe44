import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { ReadBatcher } from './batching/read-batcher';
import { preparedStatement } from './prepared-statements';

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
  /** One text for every batch size (so it is prepared once): the keys travel as one text array per key column. */
  private readonly batchSql: string;
  private readonly keyColumns: string[];
  private readonly batched = new ReadBatcher<unknown[], T>({
    keyOf: (values) => textKey(values),
    read: (keys) => this.readMany(keys),
    // Each reader hydrates its row in place: readers of one key get their own copy.
    copy: (row) => structuredClone(row),
  });

  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<T>,
    private readonly where: Array<keyof T & string>,
  ) {
    const metadata = dataSource.getMetadata(entity);
    const selectFrom = (qualifier: string) =>
      metadata.columns.map((column) => `${qualifier}${quote(column.databaseName)}${column.type === 'date' ? '::text' : ''} AS ${quote(column.propertyName)}`).join(', ');
    const select = selectFrom('');
    this.keyColumns = where.map((property) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${metadata.name} has no column ${property}`);
      return quote(column.databaseName);
    });
    const table = metadata.tablePath.split('.').map(quote).join('.');
    const conditions = this.keyColumns.map((column, index) => `${column} = $${index + 1}`);
    this.sql = preparedStatement(`SELECT ${select} FROM ${table} WHERE ${conditions.join(' AND ')} LIMIT 1`);
    this.lockedSql = preparedStatement(`${this.sql} FOR UPDATE`);
    // One probe per key through a lateral join: planned as `IN (SELECT * FROM unnest(...))`, a
    // table of a few thousand rows was hashed whole for every batch. When the key includes the
    // primary key, the probe is by the primary key alone and the rest is checked after it, so even
    // a plan made while the table was empty uses the primary key (with every key column in the
    // probe, such a plan took another index and read a whole platform's rows per key). The LIMIT
    // keeps the planner from flattening the subquery back into a join.
    const arrays = this.keyColumns.map((_, index) => `$${index + 1}::text[]`).join(', ');
    const primary = new Set(metadata.primaryColumns.map((column) => quote(column.databaseName)));
    const byPrimaryKey = primary.size > 0 && [...primary].every((column) => this.keyColumns.includes(column));
    const probe: string[] = [];
    const checkedAfter: string[] = [];
    this.keyColumns.forEach((column, index) => {
      if (!byPrimaryKey || primary.has(column)) probe.push(`${column} = k.k${index + 1}`);
      else checkedAfter.push(`t.${column} = k.k${index + 1}`);
    });
    const keyNames = this.keyColumns.map((_, index) => `k${index + 1}`).join(', ');
    this.batchSql = preparedStatement(
      `SELECT ${selectFrom('t.')} FROM unnest(${arrays}) AS k(${keyNames})` +
        ` CROSS JOIN LATERAL (SELECT * FROM ${table} WHERE ${probe.join(' AND ')} LIMIT 1) AS t` +
        (checkedAfter.length > 0 ? ` WHERE ${checkedAfter.join(' AND ')}` : ''),
    );
    this.transformed = metadata.columns.filter((column) => column.transformer);
  }

  /**
   * `findOne` outside any transaction, for the hottest reads: concurrent reads share one
   * statement (see ReadBatcher). Keys are matched by their text form, so the key columns must be text.
   */
  async findOneBatched(values: unknown[]): Promise<T | null> {
    const row = await this.batched.load(values);
    return row ? this.hydrate(row) : null;
  }

  /** The row whose `where` columns equal `values` (in order), or null. */
  findOne(runner: DataSource | EntityManager, values: unknown[]): Promise<T | null> {
    return this.read(runner, this.sql, values);
  }

  /** Same, locking the row for the rest of `manager`'s transaction. */
  findOneForUpdate(manager: EntityManager, values: unknown[]): Promise<T | null> {
    return this.read(manager, this.lockedSql, values);
  }

  private async readMany(keys: unknown[][]): Promise<Array<T | undefined>> {
    const columns = this.keyColumns.map((_, column) => keys.map((key) => String(key[column])));
    const rows: T[] = await this.dataSource.query(this.batchSql, columns);
    const byKey = new Map(rows.map((row) => [textKey(this.where.map((property) => row[property])), row]));
    return keys.map((key) => byKey.get(textKey(key)));
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

function textKey(values: unknown[]): string {
  return JSON.stringify(values.map(String));
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
