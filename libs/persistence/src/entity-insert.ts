import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * One entity's INSERT as plain SQL, built once from its TypeORM metadata, for statements that
 * compose it with more (an outbox event, a guard): `INSERT INTO <table> (<every column>) SELECT
 * $1::<type>, ...`. Typed casts because INSERT ... SELECT does not infer parameter types.
 */
export class EntityInsert<T extends ObjectLiteral> {
  readonly sql: string;
  /** The INSERT of many rows carried by one parameter, the JSON recordset of `records(...)`. */
  readonly manySql: string;
  readonly table: string;
  /** The quoted column names, in column order. */
  readonly columnList: string;
  /** The column definitions of `jsonb_to_recordset(...) AS i(<these>)`, for many rows in one parameter. */
  readonly recordsetColumns: string;
  /** The primary key's column; empty for a composite key. */
  readonly keyColumn: string;
  private readonly columns: ColumnMetadata[];

  constructor(dataSource: DataSource, entity: EntityTarget<T>) {
    const metadata = dataSource.getMetadata(entity);
    this.columns = metadata.columns;
    this.table = metadata.tablePath;
    this.columnList = this.columns.map((column) => `"${column.databaseName}"`).join(', ');
    this.recordsetColumns = this.columns.map((column) => `"${column.databaseName}" ${String(column.type)}`).join(', ');
    // Batched inserts match their rows back by key: only single-column keys are supported.
    this.keyColumn = metadata.primaryColumns.length === 1 ? metadata.primaryColumns[0].databaseName : '';
    const values = this.columns.map((column, index) => `$${index + 1}::${String(column.type)}`).join(', ');
    this.sql = `INSERT INTO ${this.table} (${this.columnList}) SELECT ${values}`;
    this.manySql = `INSERT INTO ${this.table} (${this.columnList}) SELECT ${this.columnList} FROM jsonb_to_recordset($1::jsonb) AS i(${this.recordsetColumns})`;
  }

  /**
   * The parameter of `manySql` for these entities. One parameter whatever the number of rows:
   * TypeORM's own insert of a batch rewrites its text once per value, a cost that grows with the
   * square of the batch.
   */
  records(entities: T[]): string {
    return JSON.stringify(entities.map((entity) => this.record(entity)));
  }

  /** `$n`, the parameter that carries `property` (for guards appended to the statement). */
  parameterOf(property: keyof T & string): string {
    const index = this.columns.findIndex((column) => column.propertyName === property);
    if (index < 0) throw new Error(`No column for ${property}`);
    return `$${index + 1}`;
  }

  /** The parameters for one entity, in column order, as the database takes them. */
  params(entity: T): unknown[] {
    return this.columns.map((column) => {
      const value = databaseValue(column, entity);
      return value !== null && (column.type === 'jsonb' || column.type === 'json') ? JSON.stringify(value) : value;
    });
  }

  /** One entity as a row of the `recordsetColumns` recordset: database column names, JSON values. */
  record(entity: T): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (const column of this.columns) {
      const value = databaseValue(column, entity);
      // JSON has no bytes: bytea travels in its text form.
      row[column.databaseName] = Buffer.isBuffer(value) ? `\\x${value.toString('hex')}` : value;
    }
    return row;
  }
}

function databaseValue<T extends ObjectLiteral>(column: ColumnMetadata, entity: T): unknown {
  let value: unknown = entity[column.propertyName];
  const transformers = column.transformer ? (Array.isArray(column.transformer) ? column.transformer : [column.transformer]) : [];
  for (const transformer of transformers) value = transformer.to(value);
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  return value;
}
