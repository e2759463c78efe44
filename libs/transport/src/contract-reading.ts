import { CONTRACT_CHANGES, ContractChanges, contractVersion, EVENT_SCHEMA_VERSION } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';

/**
 * A payload written at `version` of the contract `name`, in the current version's shape: the
 * current version as is, the previous one through the contract's upcaster. A reader accepts
 * those two (docs/compatibility.md); anything newer waits for a reader that knows it, anything
 * older than the previous version is refused. `undefined` is a message written before versions
 * were stamped: version 1.
 */
export function readAtCurrentVersion(name: string, version: number | undefined, payload: unknown, changes: ContractChanges = CONTRACT_CHANGES): unknown {
  const written = version ?? EVENT_SCHEMA_VERSION;
  const current = contractVersion(name, changes);
  if (written === current) return payload;
  if (written > current) throw new NewerContractVersion(name, written, current);
  const change = changes[name];
  if (!change || written !== current - 1) {
    throw new ServiceError('INVALID_REQUEST_FORMAT', `${name} version ${written} is no longer read (current ${current}; the previous one is read too)`);
  }
  return change.fromPrevious(payload);
}

/**
 * A payload from a newer release than this process: a rolling deploy reached its writer first.
 * Not the payload's fault, so an event is retried (an upgraded replica takes it), not dropped.
 */
export class NewerContractVersion extends ServiceError {
  constructor(name: string, written: number, current: number) {
    super('SERVICE_UNAVAILABLE', `${name} version ${written} is newer than this service reads (${current}); roll this service first`);
  }
}
