import { DEFAULT_PAGE_LIMIT, isTypedId, Page } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';

/**
 * What a list's cursor carries: the sort key of the last row of a page (lists run newest first,
 * so the next page is every row below it). `decode` answers undefined for a key this list never
 * issued, which the caller hears as an invalid `cursor` field rather than a silently wrong page.
 */
export interface CursorKey<Row> {
  encode(row: Row): string;
  decode(key: string): string | undefined;
}

/**
 * The cursor of lists ordered by `<idType>:<uuid>` ids (UUIDv7 ids sort by creation). A list of
 * several kinds (more than one id type, ordered by the uuid part) takes any of its types' ids.
 */
export function idCursor(...idTypes: [string, ...string[]]): CursorKey<{ id: string }> {
  return { encode: (row) => row.id, decode: (key) => (idTypes.some((idType) => isTypedId(key, idType)) ? key : undefined) };
}

/** The one cursor format: base64url of the last row's sort key (opaque to clients). */
export function encodeCursor(sortKey: string): string {
  return Buffer.from(sortKey, 'utf8').toString('base64url');
}

/** The sort key a cursor carries if this list issued it, else undefined (for a caller that hands it on; decodeCursor refuses it). */
export function readCursor<Row>(cursor: string, key: CursorKey<Row>): string | undefined {
  return key.decode(Buffer.from(cursor, 'base64url').toString('utf8'));
}

export function pageLimit(limit: number | undefined): number {
  return limit ?? DEFAULT_PAGE_LIMIT;
}

/** The sort key a request's cursor carries (cursors are opaque to clients: base64url of the key). */
export function decodeCursor<Row>(cursor: string | undefined, key: CursorKey<Row>): string | undefined {
  if (cursor === undefined) return undefined;
  const decoded = readCursor(cursor, key);
  if (decoded === undefined) throw ServiceError.invalidField('cursor', 'cursor must be the nextCursor of a previous page');
  return decoded;
}

/** A page of rows fetched with `limit + 1`: the extra row tells whether another page follows. */
export function toPage<Row, Item>(rows: Row[], limit: number, map: (row: Row) => Item, key: CursorKey<NoInfer<Row>>): Page<Item> {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const nextCursor = hasMore ? encodeCursor(key.encode(page[page.length - 1])) : undefined;
  return { data: page.map(map), hasMore, ...(nextCursor === undefined ? {} : { nextCursor }) };
}
