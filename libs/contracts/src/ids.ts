import { randomUUID } from 'node:crypto';
import { sandboxSuffix } from './sandbox-suffix';

/**
 * UUIDv7 (RFC 9562): time-ordered, so ids sort by creation and index well.
 * Resource ids are `<Type>:<uuid>` (e.g. `Customer:0190...`).
 */
export function uuidv7(now = Date.now()): string {
  // The random bits come from a version 4 UUID, which already carries the RFC 9562 variant:
  // randomUUID draws on a buffered entropy pool, randomBytes costs a system call per id.
  const random = randomUUID();
  const time = Math.floor(now).toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newId<T extends string>(type: T): `${T}:${string}` {
  return `${type}:${uuidv7()}`;
}

/**
 * A new id whose last three characters are none of `reserved`. Sandbox tables read outcomes
 * from the end of some ids (a funding source's account id, a cardholder's customer id), and a
 * generated id must never pick one by chance: an outcome happens only when a developer asks.
 */
export function newIdAvoidingSuffixes<T extends string>(type: T, reserved: ReadonlySet<string>): `${T}:${string}` {
  for (;;) {
    const id = newId(type);
    if (!reserved.has(sandboxSuffix(id))) return id;
  }
}

/** True when `value` is `<type>:<uuid>`. */
export function isTypedId(value: unknown, type: string): value is string {
  return typeof value === 'string' && value.startsWith(`${type}:`) && UUID.test(value.slice(type.length + 1));
}

/** The JavaScript pattern of a typed id, for validation constraints. */
export function typedIdPattern(type: string): RegExp {
  return new RegExp(`^${type}:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`);
}
