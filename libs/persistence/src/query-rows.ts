import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs an `UPDATE/DELETE ... RETURNING` and gives back its rows. TypeORM answers such
 * statements with `[rows, affectedCount]` rather than the rows themselves.
 */
export async function returningRows<T>(runner: DataSource | EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  const result: unknown = await runner.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}
