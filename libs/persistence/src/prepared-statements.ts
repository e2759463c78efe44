import { Client } from 'pg';

/** Statement texts prepared per process at most (each connection keeps a plan for each). */
const MAX_PREPARED = 200;

const prepared = new Map<string, string>();

/**
 * Marks a statement text as one to prepare once per connection (distributed mode), and returns
 * it. PostgreSQL parses and plans an unnamed statement on every execution; for a hot statement
 * that is most of its cost (measured here: 500 us against 230 us of database CPU for the card
 * authorization's insert). Only for fixed texts whose every plan is a probe by key (key lookups,
 * single-row writes, recordset inserts): after a few executions PostgreSQL may switch a prepared
 * statement to one generic plan, kept until the table is next analysed, so a plan chosen while a
 * table was empty must still be right when it is large. That made the ledger's batched
 * statements four times slower; the outbox relay's claim and the webhooks inbox are not prepared
 * for the same reason (measured: planned on an empty table, 26 ms and 144 ms per batch over a
 * large backlog, against under 1 ms planned afresh).
 */
export function preparedStatement(text: string): string {
  if (!prepared.has(text) && prepared.size < MAX_PREPARED) prepared.set(text, `paykit_${prepared.size + 1}`);
  return text;
}

/**
 * The `pg` client of every service database in distributed mode: it runs marked statements
 * prepared. pg-pool builds its connections from this class (the `Client` option), and each
 * `query(text, values)` of a marked text becomes pg's named query config (`{name, text, values}`),
 * which pg prepares once per connection. `prepared-statements.spec.ts` fails if pg stops
 * honouring either.
 */
export class PreparingClient extends Client {}

// eslint-disable-next-line @typescript-eslint/unbound-method -- called with the client as `this` below
const unnamedQuery = Client.prototype.query;

// Defined rather than overridden: `pg`'s typings overload `query` a dozen ways, and this forwards every one unchanged.
Object.defineProperty(PreparingClient.prototype, 'query', {
  configurable: true,
  writable: true,
  value: function preparingQuery(this: Client, ...args: unknown[]): unknown {
    const [text, values] = args;
    const name = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? prepared.get(text) : undefined;
    const result: unknown = Reflect.apply(unnamedQuery, this, name === undefined ? args : [{ name, text, values }]);
    return result;
  },
});
