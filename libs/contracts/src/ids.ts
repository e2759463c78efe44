import { randomBytes } from 'node:crypto';

/**
 * UUIDv7 (RFC 9562): time-ordered, so ids sort by creation and index well.
 * Resource ids are `<Type>:<uuid>` (e.g. `Customer:0190...`).
 */
export function uuidv7(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes[0] = Math.floor(now / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(now / 2 ** 32) & 0xff;
  bytes[2] = Math.floor(now / 2 ** 24) & 0xff;
  bytes[3] = Math.floor(now / 2 ** 16) & 0xff;
  bytes[4] = Math.floor(now / 2 ** 8) & 0xff;
  bytes[5] = now & 0xff;
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newId<T extends string>(type: T): `${T}:${string}` {
  return `${type}:${uuidv7()}`;
}

/** True when `value` is `<type>:<uuid>`. */
export function isTypedId(value: unknown, type: string): value is string {
  return typeof value === 'string' && value.startsWith(`${type}:`) && UUID.test(value.slice(type.length + 1));
}

/** The JavaScript pattern of a typed id, for validation constraints. */
export function typedIdPattern(type: string): RegExp {
  return new RegExp(`^${type}:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`);
}
