import { EVENT_SCHEMA_VERSION } from './common';
import { EventSubject } from './event-map';
import { EXTERNAL_ACCOUNTS_SUBJECTS } from './external-accounts';
import type { Subject } from './index';

/** A request/reply subject or an event subject: each names one contract. */
export type ContractName = Subject | EventSubject;

/**
 * Turns a payload written at the previous version of a contract into the current version's
 * shape. It sees the payload before validation (so it takes `unknown`) and must not throw:
 * what it returns is validated against the current contract.
 */
export type Upcaster = (previous: unknown) => unknown;

/** A contract changed incompatibly: its current version and how to read the version before it. */
export interface ContractChange {
  version: number;
  fromPrevious: Upcaster;
}

/** Where the versions of the contracts and their upcasters are looked up (tests pass their own). */
export type ContractChanges = Partial<Record<string, ContractChange>>;

/**
 * Every contract whose shape changed incompatibly since version 1, with its current version and
 * the upcaster from the version before (docs/compatibility.md says which changes need one). A
 * contract not listed is at version 1.
 */
export const CONTRACT_CHANGES: Partial<Record<ContractName, ContractChange>> = {
  // Version 2 carries the HTTP body as the client sent it under `body` (the service validates it
  // with its own rules); version 1 had the body's fields beside the routing fields.
  [EXTERNAL_ACCOUNTS_SUBJECTS.createAccount]: { version: 2, fromPrevious: bodyBeside(['ownerType']) },
  [EXTERNAL_ACCOUNTS_SUBJECTS.updateAccount]: { version: 2, fromPrevious: bodyBeside(['ownerType', 'externalAccountId']) },
};

/** Upcaster: every field but the `routing` ones moves under `body`. */
function bodyBeside(routing: readonly string[]): Upcaster {
  return (previous) => {
    if (typeof previous !== 'object' || previous === null) return previous;
    const routed: Record<string, unknown> = {};
    const body: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(previous)) (routing.includes(field) ? routed : body)[field] = value;
    return { ...routed, body };
  };
}

/** The version a contract's messages or events are written at today. */
export function contractVersion(name: string, changes: ContractChanges = CONTRACT_CHANGES): number {
  return changes[name]?.version ?? EVENT_SCHEMA_VERSION;
}
