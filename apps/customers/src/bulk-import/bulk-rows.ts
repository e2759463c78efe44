import { BULK_CSV_COLUMNS, BulkImportRowError, CreateCustomerRequest } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { validateContract } from '@paykit/validation';

const KNOWN = new Set<string>(BULK_CSV_COLUMNS);

/** Why a header row cannot be imported, or undefined when it can. */
export function headerProblem(columns: string[]): string | undefined {
  const unknown = columns.filter((column) => !KNOWN.has(column));
  if (unknown.length > 0) return `Unknown column(s) ${unknown.map((c) => `"${c}"`).join(', ')}; allowed: ${BULK_CSV_COLUMNS.join(', ')}`;
  const duplicated = columns.filter((column, i) => columns.indexOf(column) !== i);
  if (duplicated.length > 0) return `Duplicated column(s) ${[...new Set(duplicated)].join(', ')}`;
  if (!columns.includes('customerType')) return 'The header row must include a customerType column';
  return undefined;
}

/** A CSV row as the JSON body POST /customers would get: empty cells are absent, dot paths nest. */
export function rowToBody(columns: string[], cells: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const cell = cells[i]?.trim();
    if (!cell) return;
    const value =
      column === 'sourceOfWealthCategories'
        ? cell
            .split(';')
            .map((part) => part.trim())
            .filter(Boolean)
        : cell;
    const dot = column.indexOf('.');
    if (dot < 0) body[column] = value;
    else ((body[column.slice(0, dot)] ??= {}) as Record<string, unknown>)[column.slice(dot + 1)] = value;
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
    return rowErrors(row, error);
  }
}

export function rowErrors(row: number, error: unknown): BulkImportRowError[] {
  if (!(error instanceof ServiceError)) throw error;
  const fields = (error.details?.errors as Array<{ field: string; message: string }> | undefined) ?? [];
  return fields.length > 0 ? fields.map((e) => ({ row, field: e.field, message: e.message })) : [{ row, field: '', message: error.message }];
}
