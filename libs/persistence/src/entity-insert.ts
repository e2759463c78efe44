import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * One entity's INSERT as plain SQL, built once from its TypeORM metadata, for statements that
 * compose it with more (an outbox event, a guard): `INSERT INTO <table> (<every column>) SELECT
 * $1::<type>, ...`. Typed casts because INSERT ... SELECT does not infer parameter types.
 */
export class EntityInsert<T extends ObjectLiteral> {
  readonly sql: string;
  private readonly columns: ColumnMetadata[];

  constructor(dataSource: DataSource, entity: EntityTarget<T>) {
    const metadata = dataSource.getMetadata(entity);
    this.columns = metadata.columns;
    const names = this.columns.map((column) => `"${column.databaseName}"`).join(', ');
    const values = this.columns.map((column, index) => `$${index + 1}::${String(column.type)}`).join(', ');
    this.sql = `INSERT INTO ${metadata.tablePath} (${names}) SELECT ${values}`;
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
      let value: unknown = entity[column.propertyName];
      const transformers = column.transformer ? (Array.isArray(column.transformer) ? column.transformer : [column.transformer]) : [];
      for (const transformer of transformers) value = transformer.to(value);
      if (value === undefined || value === null) return null;
      if (value instanceof Date) return value.toISOString();
      return column.type === 'jsonb' || column.type === 'json' ? JSON.stringify(value) : value;
    });
  }
}
