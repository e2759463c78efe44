/** An amount for the JSON API: integers in minor units; refuses values a JSON number cannot hold exactly. */
export function toAmount(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error(`Amount ${value} exceeds the exactly representable range`);
  }
  return Number(value);
}

/** Page cursors are opaque to clients: the last id of a page, base64url encoded. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(lastId, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (!cursor) return undefined;
  return Buffer.from(cursor, 'base64url').toString('utf8');
}
