import { EVENT_SCHEMA_VERSION } from './common';
import { EventSubject } from './event-map';
import { CUSTOMERS_SUBJECTS } from './customers';
import { EXTERNAL_ACCOUNTS_SUBJECTS } from './external-accounts';
import type { Subject } from './message-map';

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
  // Version 2 takes the reference's values: enhanced due diligence enums, beneficial owner roles,
  // and documents held by `documentHolder` with their issuing `country`.
  [CUSTOMERS_SUBJECTS.createCustomer]: { version: 2, fromPrevious: (previous) => referenceEddValues(previous) },
  [CUSTOMERS_SUBJECTS.updateCustomer]: {
    version: 2,
    fromPrevious: (previous) => withObject(previous, (request) => ({ ...request, changes: referenceEddValues(request.changes) })),
  },
  [CUSTOMERS_SUBJECTS.completeKycLink]: { version: 2, fromPrevious: (previous) => referenceEddValues(previous) },
  [CUSTOMERS_SUBJECTS.createBeneficialOwner]: {
    version: 2,
    fromPrevious: (previous) => withObject(previous, (request) => ({ ...request, roles: mapValues(request.roles, OWNER_ROLES) })),
  },
  [CUSTOMERS_SUBJECTS.startDocumentUpload]: {
    version: 2,
    fromPrevious: (previous) => withObject(previous, ({ customerId, beneficialOwnerId, ...rest }) => ({ ...rest, documentHolder: beneficialOwnerId ?? customerId })),
  },
};

const OWNER_ROLES: Record<string, string> = { BENEFICIAL_OWNER: 'UBO', OFFICER: 'COMPANY_OFFICER' };
const WEALTH: Record<string, string> = { PENSION: 'RETIREMENT', SALE_OF_PROPERTY: 'PROPERTY_SALE' };
const INCOME: Record<string, string> = { RANGE_0_25K: 'UNDER_50K', RANGE_25K_50K: 'UNDER_50K', RANGE_OVER_1M: 'OVER_1M' };
/** Version 1 purposes without a reference counterpart become OTHER with the old value as the description. */
const PURPOSE: Record<string, string> = { PAYROLL: 'EMPLOYEE_PAYOUTS' };
const PURPOSE_TO_OTHER = ['REMITTANCES', 'BILL_PAYMENTS', 'ONLINE_PURCHASES', 'INVESTMENTS', 'SAVINGS', 'BUSINESS_PAYMENTS'];

function withObject(previous: unknown, change: (value: Record<string, unknown>) => unknown): unknown {
  return typeof previous === 'object' && previous !== null && !Array.isArray(previous) ? change(previous as Record<string, unknown>) : previous;
}

function mapValues(values: unknown, mapping: Record<string, string>): unknown {
  return Array.isArray(values) ? [...new Set(values.map((value: unknown) => (typeof value === 'string' ? (mapping[value] ?? value) : value)))] : values;
}

/** Upcaster: a version 1 body's enhanced due diligence values in the reference's values. */
function referenceEddValues(previous: unknown): unknown {
  return withObject(previous, (body) => {
    const next: Record<string, unknown> = { ...body };
    if ('sourceOfWealthCategories' in body) next.sourceOfWealthCategories = mapValues(body.sourceOfWealthCategories, WEALTH);
    if (typeof body.annualIncomeRange === 'string') next.annualIncomeRange = INCOME[body.annualIncomeRange] ?? body.annualIncomeRange;
    if (typeof body.purposeOfAccount === 'string') {
      if (PURPOSE_TO_OTHER.includes(body.purposeOfAccount)) {
        next.purposeOfAccount = 'OTHER';
        next.purposeOfAccountOtherDescription = body.purposeOfAccountOtherDescription ?? body.purposeOfAccount;
      } else next.purposeOfAccount = PURPOSE[body.purposeOfAccount] ?? body.purposeOfAccount;
    }
    return next;
  });
}

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
