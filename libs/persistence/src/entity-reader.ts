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

  constructor(dataSource: DataSource, entity: EntityTarget<T>, where: Array<keyof T & string>) {
    const metadata = dataSource.getMetadata(entity);
    const select = metadata.columns
      .map((column) => `${quote(column.databaseName)}${column.type === 'date' ? '::text' : ''} AS ${quote(column.propertyName)}`)
      .join(', ');
    const conditions = where.map((property, index) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${metadata.name} has no column ${property}`);
      return `${quote(column.databaseName)} = $${index + 1}`;
    });
    this.sql = `SELECT ${select} FROM ${metadata.tablePath.split('.').map(quote).join('.')} WHERE ${conditions.join(' AND ')} LIMIT 1`;
    this.lockedSql = `${this.sql} FOR UPDATE`;
    this.transformed = metadata.columns.filter((column) => column.transformer);
  }

  /** The row whose `where` columns equal `values` (in order), or null. */
  findOne(runner: DataSource | EntityManager, values: unknown[]): Promise<T | null> {
    return this.read(runner, this.sql, values);
  }

  /** Same, locking the row for the rest of `manager`'s transaction. */
  findOneForUpdate(manager: EntityManager, values: unknown[]): Promise<T | null> {
    return this.read(manager, this.lockedSql, values);
  }

  private async read(runner: DataSource | EntityManager, sql: string, values: unknown[]): Promise<T | null> {
    const rows: T[] = await runner.query(sql, values);
    const row = rows[0];
    if (!row) return null;
    for (const column of this.transformed) {
      const transformers = Array.isArray(column.transformer) ? column.transformer : [column.transformer!];
      let value: unknown = row[column.propertyName];
      for (const transformer of [...transformers].reverse()) value = transformer.from(value);
      (row as Record<string, unknown>)[column.propertyName] = value;
    }
    return row;
  }
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
