import { Client } from 'pg';

/** Executions of one statement text in this process before it is prepared. */
const PREPARE_AFTER = 3;
/** Statement texts prepared per process at most (each connection keeps a plan for each). */
const MAX_PREPARED = 200;
/** Texts counted while they wait to reach PREPARE_AFTER; one-off texts beyond this are not tracked. */
const MAX_COUNTED = 5_000;

const prepared = new Map<string, string>();
const counted = new Map<string, number>();

/** The prepared statement name of a recurring text, or undefined while it runs unnamed. */
function statementNameOf(text: string): string | undefined {
  const name = prepared.get(text);
  if (name !== undefined || prepared.size >= MAX_PREPARED) return name;
  const executions = (counted.get(text) ?? 0) + 1;
  if (executions < PREPARE_AFTER) {
    if (counted.has(text) || counted.size < MAX_COUNTED) counted.set(text, executions);
    return undefined;
  }
  counted.delete(text);
  const newName = `paykit_${prepared.size + 1}`;
  prepared.set(text, newName);
  return newName;
}

type Query = (...args: unknown[]) => unknown;

/**
 * The `pg` client of every service database in distributed mode: a parameterized statement
 * that keeps coming back is prepared once per connection and then only bound and executed.
 * PostgreSQL parses and plans an unnamed statement on every execution, and for this product's
 * statements (CTEs that write a row and its outbox event together) that was most of the
 * database's CPU: 500 us against 230 us per card authorization's insert on this machine.
 * One-off texts stay unnamed, and the prepared set is capped.
 */
export class PreparingClient extends Client {}

// eslint-disable-next-line @typescript-eslint/unbound-method -- called with the client as `this` below
const unnamedQuery = Client.prototype.query as Query;
// Assigned rather than overridden: `pg`'s typings overload `query` a dozen ways.
(PreparingClient.prototype as unknown as { query: Query }).query = function preparingQuery(this: Client, ...args: unknown[]): unknown {
  const [text, values] = args;
  if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length > 0) {
    const name = statementNameOf(text);
    if (name !== undefined) return unnamedQuery.call(this, { name, text, values });
  }
  return unnamedQuery.apply(this, args);
};
