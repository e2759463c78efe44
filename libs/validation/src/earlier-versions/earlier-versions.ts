import { FieldError } from '@paykit/errors';
import extracted from './assets/request-fields-by-version.json';
import { operationKey } from './document-fields';

/**
 * Requests written against an earlier version of the API document. Clients generated from any
 * published version are in use; a field such a version had on a request and today's dropped is
 * accepted and ignored, and a renamed one is read under today's name. The fields each version had
 * were extracted once from the document's history (tools/openapi-versions/extract.ts, README.md
 * beside this file); what was removed is derived from that data here, never listed by hand. Fields
 * that no version ever had are still refused by the contract.
 */

/** The extracted file: for each operation, each field with the versions that had it. */
export interface RequestFieldsByVersion {
  versions: string[];
  operations: Record<string, { in: string; body?: Record<string, string>; query?: Record<string, string> }>;
}

/**
 * A field an earlier version had under another name, at the same meaning and values (renames are
 * read from the document's history by a person: the extraction only proposes candidates).
 */
export interface FieldRename {
  operations: readonly string[];
  from: string;
  to: string;
  /** The earlier version's values under today's, where the values were renamed too. */
  values?: Readonly<Record<string, string>>;
}

const CUSTOMER_WRITES = ['POST /customers', 'PATCH /customers/{}'];
const EXTERNAL_ACCOUNT_WRITES = ['POST /customers/external-accounts', 'POST /platform/external-accounts'];

/** The renames of the document's history, each confirmed against the change that made it. */
export const RENAMED_REQUEST_FIELDS: readonly FieldRename[] = [
  // 2026-08-14, "unify individual customer identification on idType/identifier/countryOfIssuance":
  // the same identification type enum, number and issuing country under new names.
  { operations: CUSTOMER_WRITES, from: 'taxIdType', to: 'idType' },
  { operations: CUSTOMER_WRITES, from: 'taxIdentifier', to: 'identifier' },
  { operations: CUSTOMER_WRITES, from: 'taxIdCountryOfIssuance', to: 'countryOfIssuance' },
  // 2026-03-20, the business customer's `expectedActivityVolumes` object flattened into
  // `businessInfo`; its ranges later took the prefixed names of today (one to one).
  {
    operations: CUSTOMER_WRITES,
    from: 'businessInfo.expectedActivityVolumes.monthlyTransactionCount',
    to: 'businessInfo.expectedMonthlyTransactionCount',
    values: {
      LESS_THAN_10: 'COUNT_UNDER_10',
      '10_TO_100': 'COUNT_10_TO_100',
      '100_TO_500': 'COUNT_100_TO_500',
      '500_TO_1000': 'COUNT_500_TO_1000',
      MORE_THAN_1000: 'COUNT_OVER_1000',
    },
  },
  {
    operations: CUSTOMER_WRITES,
    from: 'businessInfo.expectedActivityVolumes.monthlyTransactionVolume',
    to: 'businessInfo.expectedMonthlyTransactionVolume',
    values: {
      LESS_THAN_10K: 'VOLUME_UNDER_10K',
      '10K_TO_100K': 'VOLUME_10K_TO_100K',
      '100K_TO_1M': 'VOLUME_100K_TO_1M',
      '1M_TO_10M': 'VOLUME_1M_TO_10M',
      MORE_THAN_10M: 'VOLUME_OVER_10M',
    },
  },
  // Until 2026-02-23 a bank account's checking or savings was `accountCategory`; that change
  // dropped it, and `bankAccountType` (the same two values, the same meaning) came back on
  // 2026-03-31: the earlier name is read as today's.
  { operations: EXTERNAL_ACCOUNT_WRITES, from: 'accountInfo.accountCategory', to: 'accountInfo.bankAccountType' },
];

/** A field that today's version still has, whose values an earlier version named otherwise. */
export interface ValueRename {
  operations: readonly string[];
  field: string;
  /** The earlier version's values under today's. */
  values: Readonly<Record<string, string>>;
}

/** The renamed values of the document's history, each confirmed against the change that made it. */
export const RENAMED_REQUEST_VALUES: readonly ValueRename[] = [
  // 2026-02-23, "External Accounts Updates": account types named by scheme became named by
  // currency, each scheme's entry of the enum replaced by its currency's (IBAN by EUR_ACCOUNT).
  {
    operations: EXTERNAL_ACCOUNT_WRITES,
    field: 'accountInfo.accountType',
    values: { US_ACCOUNT: 'USD_ACCOUNT', CLABE: 'MXN_ACCOUNT', PIX: 'BRL_ACCOUNT', IBAN: 'EUR_ACCOUNT', UPI: 'INR_ACCOUNT' },
  },
];

/**
 * A field today's version requires that earlier versions did not have, whose value those
 * versions' requests still tell unambiguously: set from the first rule whose field is present
 * beside it, and only where the request does not send it.
 */
export interface InferredField {
  operations: readonly string[];
  field: string;
  from: ReadonlyArray<{ present: string; value: string }>;
}

export const INFERRED_REQUEST_FIELDS: readonly InferredField[] = [
  // Until 2026-01-30 a quote's source and destination had no type: the variant was told by its
  // fields (an account id, or a currency alone for real-time funding; an account id or an UMA address).
  {
    operations: ['POST /quotes'],
    field: 'source.sourceType',
    from: [
      { present: 'accountId', value: 'ACCOUNT' },
      { present: 'currency', value: 'REALTIME_FUNDING' },
    ],
  },
  {
    operations: ['POST /quotes'],
    field: 'destination.destinationType',
    from: [
      { present: 'accountId', value: 'ACCOUNT' },
      { present: 'umaAddress', value: 'UMA_ADDRESS' },
    ],
  },
];

/**
 * Fields of earlier versions that are still refused: ignoring them would change what the request
 * does, so the client must hear of it rather than get a resource it did not ask for.
 */
export const STILL_REFUSED_REQUEST_FIELDS: ReadonlyArray<{
  operation: string;
  field: string;
  reason: string;
  /**
   * The refusal's message, answered before any other check (the request is not read further), where
   * the contract's "not a recognised field" beside the errors its absence causes would mislead.
   */
  instead?: string;
}> = [
  {
    // Until 2026-02-24 both creation routes shared one body, whose customerId made the customer the
    // owner: ignored here, the account would silently be the platform's.
    operation: 'POST /platform/external-accounts',
    field: 'customerId',
    reason: "an account meant for a customer would silently become the platform's",
  },
  {
    // The first versions (2025-10-13 to 2026-01-29) let a quote's destination be a whole external
    // account to create (ExternalAccountCreateRequest) and quote in one step. Taken out, the
    // destination would be left empty; created here, the gateway would write an external account
    // in another service outside the quote's own transaction (left behind when the quote fails).
    operation: 'POST /quotes',
    field: 'destination.externalAccountDetails',
    reason: 'taken out, it would leave the quote without a destination',
    instead:
      'an external account given inline as the destination is no longer accepted: create it first with POST /customers/external-accounts ' +
      '(the same fields), then send destination { destinationType: "ACCOUNT", accountId: <its id> }',
  },
];

/**
 * The still-refused fields of `operation` (`METHOD /path` as the allowances name it) that carry
 * their own message and are present in `body`: each as the field error to answer.
 */
export function refusedEarlierVersionFields(operation: string, body: unknown): FieldError[] {
  const errors: FieldError[] = [];
  for (const row of STILL_REFUSED_REQUEST_FIELDS) {
    if (row.operation !== operation || row.instead === undefined) continue;
    const parts = segments(row.field);
    const key = parts[parts.length - 1];
    for (const [holder, path] of holders(body, parts, '')) if (key in holder) errors.push({ field: join(path, key), message: row.instead });
  }
  return errors;
}

/** What one operation accepts beyond today's fields. */
export interface EarlierVersionAllowance {
  /** Body fields of earlier versions only (the outermost of each removed subtree), dotted with `[]`. */
  removedBody: string[];
  removedQuery: string[];
  renames: FieldRename[];
  /** Fields whose earlier values are read as today's. */
  valueRenames?: ValueRename[];
  /** Fields today requires that earlier versions' requests tell without sending. */
  inferred?: InferredField[];
}

/** Versions `"0-2,5"` as a test of one index. */
function inRanges(ranges: string, index: number): boolean {
  return ranges.split(',').some((part) => {
    const [from, to] = part.split('-').map(Number);
    return index >= from && index <= (to ?? from);
  });
}

/** A body field's entry, `"<type> <ranges>"`. */
export function fieldEntry(entry: string): { type: string; ranges: string } {
  const space = entry.indexOf(' ');
  return { type: entry.slice(0, space), ranges: entry.slice(space + 1) };
}

const within = (path: string, ancestor: string) => path === ancestor || path.startsWith(`${ancestor}.`) || path.startsWith(`${ancestor}[]`);

/**
 * The allowance of every operation today's document has: the fields some earlier version had
 * and the latest has not, less the renamed ones and less those `stillKnown` reports (fields the
 * served contract declares: those stay validated as they are).
 */
export function earlierVersionAllowances(
  stillKnown: (operation: string) => ReadonlySet<string> = () => new Set(),
  data: RequestFieldsByVersion = extracted,
  renames: readonly FieldRename[] = RENAMED_REQUEST_FIELDS,
): Map<string, EarlierVersionAllowance> {
  const latest = data.versions.length - 1;
  const allowances = new Map<string, EarlierVersionAllowance>();
  for (const [operation, entry] of Object.entries(data.operations)) {
    if (!inRanges(entry.in, latest)) continue;
    const known = stillKnown(operation);
    const operationRenames = renames.filter((rename) => rename.operations.includes(operation));
    const refused = STILL_REFUSED_REQUEST_FIELDS.filter((field) => field.operation === operation).map((field) => field.field);
    const renamed = (path: string) => operationRenames.some((rename) => within(path, rename.from)) || refused.some((field) => within(path, field));
    const gone = Object.entries(entry.body ?? {})
      .filter(([path, value]) => !inRanges(fieldEntry(value).ranges, latest) && !known.has(path) && !renamed(path))
      .map(([path]) => path);
    const removedBody = gone.filter((path) => !gone.some((other) => other !== path && within(path, other)));
    const removedQuery = Object.entries(entry.query ?? {})
      .filter(([name, ranges]) => !inRanges(ranges, latest) && !known.has(name))
      .map(([name]) => name);
    const valueRenames = RENAMED_REQUEST_VALUES.filter((rename) => rename.operations.includes(operation));
    const inferred = INFERRED_REQUEST_FIELDS.filter((field) => field.operations.includes(operation));
    if (removedBody.length || removedQuery.length || operationRenames.length || valueRenames.length || inferred.length)
      allowances.set(operation, { removedBody, removedQuery, renames: operationRenames, valueRenames, inferred });
  }
  return allowances;
}

/** The allowance of `METHOD /path` (any parameter syntax), if it has one. */
export function allowanceFor(allowances: Map<string, EarlierVersionAllowance>, method: string, path: string): EarlierVersionAllowance | undefined {
  return allowances.get(operationKey(method, path));
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `a.b[].c` -> `['a', 'b', '[]', 'c']`. */
function segments(path: string): string[] {
  return path.split('.').flatMap((part) => (part.endsWith('[]') ? [part.slice(0, -2), '[]'] : [part]));
}

/** The objects holding the field at `path`, each with its concrete path (`a.0.b`, as errors name fields). */
function holders(value: unknown, parts: string[], path: string): Array<[Json, string]> {
  if (parts.length === 1) return isObject(value) ? [[value, path]] : [];
  const [head, ...rest] = parts;
  if (head === '[]') return Array.isArray(value) ? value.flatMap((item, i) => holders(item, rest, `${path}.${i}`)) : [];
  if (!isObject(value)) return [];
  return holders(value[head], rest, path ? `${path}.${head}` : head);
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** The field at `path` of the earlier version, moved (with its value renamed) to today's path. */
function applyRename(body: Json, rename: FieldRename): void {
  const from = segments(rename.from);
  for (const [holder] of holders(body, from, '')) {
    const key = from[from.length - 1];
    if (!(key in holder)) continue;
    const value = holder[key];
    delete holder[key];
    const mapped = typeof value === 'string' && rename.values?.[value] !== undefined ? rename.values[value] : value;
    const to = segments(rename.to);
    let target: Json = body;
    for (const part of to.slice(0, -1)) {
      if (!isObject(target[part])) target[part] = {};
      target = target[part] as Json;
    }
    // A request that sends both names means today's.
    target[to[to.length - 1]] ??= mapped;
    // An object the move left empty (the earlier version's container) goes with it.
    if (Object.keys(holder).length === 0) removeEmptyContainer(body, from.slice(0, -1));
  }
}

function removeEmptyContainer(body: Json, parts: string[]): void {
  if (parts.length === 0 || parts.includes('[]')) return;
  let parent: Json = body;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(parent[part])) return;
    parent = parent[part];
  }
  const last = parts[parts.length - 1];
  if (isObject(parent[last]) && Object.keys(parent[last]).length === 0) delete parent[last];
}

/**
 * Brings a request of an earlier version to today's: renamed fields move to today's names, and
 * removed ones are taken out of the body and the query. Returns the fields taken out (as the
 * errors would name them) for the reply's warnings. Changes `body` and `query` in place.
 */
export function applyEarlierVersionAllowance(allowance: EarlierVersionAllowance, body: unknown, query?: Json): string[] {
  const ignored: string[] = [];
  if (isObject(body)) {
    for (const rename of allowance.renames) applyRename(body, rename);
    for (const rename of allowance.valueRenames ?? []) {
      const parts = segments(rename.field);
      const key = parts[parts.length - 1];
      for (const [holder] of holders(body, parts, '')) {
        const value = holder[key];
        if (typeof value === 'string' && rename.values[value] !== undefined) holder[key] = rename.values[value];
      }
    }
    for (const field of allowance.inferred ?? []) {
      const parts = segments(field.field);
      const key = parts[parts.length - 1];
      for (const [holder] of holders(body, parts, '')) {
        if (holder[key] !== undefined) continue;
        const rule = field.from.find((candidate) => holder[candidate.present] !== undefined);
        if (rule) holder[key] = rule.value;
      }
    }
    for (const removed of allowance.removedBody) {
      const parts = segments(removed);
      for (const [holder, path] of holders(body, parts, '')) {
        const key = parts[parts.length - 1];
        if (!(key in holder)) continue;
        delete holder[key];
        ignored.push(join(path, key));
      }
    }
  }
  if (query) {
    for (const name of allowance.removedQuery) {
      if (!(name in query)) continue;
      delete query[name];
      ignored.push(name);
    }
  }
  return ignored;
}

/** The reply's warning for a field taken out. */
export function ignoredFieldWarning(field: string): FieldError {
  return { field, message: `${field} is a field of an earlier version of the API that this version no longer reads; it was ignored` };
}
