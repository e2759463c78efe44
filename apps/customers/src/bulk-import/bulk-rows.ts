import { BULK_CSV_COLUMN_ALIASES, BULK_CSV_COLUMNS, BulkImportRowError, CreateCustomerRequest } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { validateContract } from '@paykit/validation';

const KNOWN = new Set<string>(BULK_CSV_COLUMNS);
const ALIASES = new Map<string, string | null>(Object.entries(BULK_CSV_COLUMN_ALIASES));

/**
 * The create field (dot path) a header column fills: the column itself, or the field a reference
 * document column name stands for; null for a document column a customer has no field for
 * (ignored); undefined for an unknown column.
 */
export function fieldOfColumn(column: string): string | null | undefined {
  if (KNOWN.has(column)) return column;
  return ALIASES.get(column);
}

/** Why a header row cannot be imported, or undefined when it can. */
export function headerProblem(columns: string[]): string | undefined {
  const unknown = columns.filter((column) => fieldOfColumn(column) === undefined);
  if (unknown.length > 0) {
    return `Unknown column(s) ${unknown.map((c) => `"${c}"`).join(', ')}; allowed: ${BULK_CSV_COLUMNS.join(', ')}, or the reference's names ${[...ALIASES.keys()].join(', ')}`;
  }
  // A field given twice, under one name or under both of its names.
  const byField = new Map<string, string[]>();
  for (const column of columns) {
    const key = fieldOfColumn(column) ?? column;
    byField.set(key, [...(byField.get(key) ?? []), column]);
  }
  const duplicated = [...byField].filter(([, named]) => named.length > 1);
  if (duplicated.length > 0) {
    const described = duplicated.map(([field, named]) => (named.every((name) => name === field) ? field : `${field} (${named.join(', ')})`));
    return `Duplicated column(s) ${described.join(', ')}`;
  }
  if (!columns.includes('customerType')) return 'The header row must include a customerType column';
  return undefined;
}

/** A CSV row as the JSON body POST /customers would get: empty cells are absent, dot paths nest, the reference's column names become their fields. */
export function rowToBody(columns: string[], cells: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const field = fieldOfColumn(column);
    const cell = cells[i]?.trim();
    if (!cell || !field) return;
    const value =
      field === 'sourceOfWealthCategories'
        ? cell
            .split(';')
            .map((part) => part.trim())
            .filter(Boolean)
        : cell;
    const dot = field.indexOf('.');
    if (dot < 0) body[field] = value;
    else ((body[field.slice(0, dot)] ??= {}) as Record<string, unknown>)[field.slice(dot + 1)] = value;
  });
  return body;
}

/** Validates a row exactly like POST /customers; returns the request or the row's field errors. */
export function parseRow(row: number, columns: string[], cells: string[]): CreateCustomerRequest | BulkImportRowError[] {
  if (cells.length !== columns.length) {
    return [{ row, field: '', message: `the row has ${cells.length} cells, the header ${columns.length}` }];
  }
  try {
    return validateContract(CreateCustomerRequest, rowToBody(columns, cells));
  } catch (error) {
    return rowErrors(row, error, columns);
  }
}

/** A row's errors, each field named as the file's header names it (`city` for a file that said `city`). */
export function rowErrors(row: number, error: unknown, columns: string[] = []): BulkImportRowError[] {
  if (!(error instanceof ServiceError)) throw error;
  const columnOf = new Map<string, string>();
  for (const column of columns) {
    const field = fieldOfColumn(column);
    if (field) columnOf.set(field, column);
  }
  const fields = (error.details?.errors as Array<{ field: string; message: string }> | undefined) ?? [];
  return fields.length > 0 ? fields.map((e) => ({ row, field: columnOf.get(e.field) ?? e.field, message: e.message })) : [{ row, field: '', message: error.message }];
}
