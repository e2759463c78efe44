import { DEFAULT_PAGE_LIMIT, Page } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';

/** Cursors are opaque to clients: the base64url of the last id of a page (UUIDv7 ids sort by creation). */
export function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined, idType: string): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!id.startsWith(`${idType}:`)) throw ServiceError.invalidField('cursor', 'cursor is not one this API returned');
  return id;
}

/** Rows were fetched with `limit + 1` to learn whether another page follows. */
export function toPage<E extends { id: string }, R>(rows: E[], limit: number, map: (row: E) => R): Page<R> {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  return { data: page.map(map), hasMore, ...(hasMore ? { nextCursor: encodeCursor(page[page.length - 1].id) } : {}) };
}

export function pageLimit(limit: number | undefined): number {
  return limit ?? DEFAULT_PAGE_LIMIT;
}
