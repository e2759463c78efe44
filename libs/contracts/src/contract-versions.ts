import { EVENT_SCHEMA_VERSION } from './common';
import { EventSubject } from './event-map';
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
 * contract not listed is at version 1. None has changed yet.
 */
export const CONTRACT_CHANGES: Partial<Record<ContractName, ContractChange>> = {};

/** The version a contract's messages or events are written at today. */
export function contractVersion(name: string, changes: ContractChanges = CONTRACT_CHANGES): number {
  return changes[name]?.version ?? EVENT_SCHEMA_VERSION;
}
