import { Client } from 'pg';

/** Statement texts prepared per process at most (each connection keeps a plan for each). */
const MAX_PREPARED = 200;

const prepared = new Map<string, string>();

/**
 * Marks a statement text as one to prepare once per connection (distributed mode), and returns
 * it. PostgreSQL parses and plans an unnamed statement on every execution; for a hot statement
 * that is most of its cost (measured here: 500 us against 230 us of database CPU for the card
 * authorization's insert). Prepared statements run one generic plan (the connections force it),
 * so only for fixed texts whose plan does not depend on their parameters: key lookups and probes,
 * single-row writes, recordset inserts. The ledger's batched statements are not: a generic plan
 * made them four times slower.
 */
export function preparedStatement(text: string): string {
  if (!prepared.has(text) && prepared.size < MAX_PREPARED) prepared.set(text, `paykit_${prepared.size + 1}`);
  return text;
}

type Query = (...args: unknown[]) => unknown;

/** The `pg` client of every service database in distributed mode: it runs marked statements prepared. */
export class PreparingClient extends Client {}

// eslint-disable-next-line @typescript-eslint/unbound-method -- called with the client as `this` below
const unnamedQuery = Client.prototype.query as Query;
// Assigned rather than overridden: `pg`'s typings overload `query` a dozen ways.
(PreparingClient.prototype as unknown as { query: Query }).query = function preparingQuery(this: Client, ...args: unknown[]): unknown {
  const [text, values] = args;
  if (args.length === 2 && typeof text === 'string' && Array.isArray(values)) {
    const name = prepared.get(text);
    if (name !== undefined) return unnamedQuery.call(this, { name, text, values });
  }
  return unnamedQuery.apply(this, args);
};
