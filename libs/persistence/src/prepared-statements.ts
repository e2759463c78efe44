import { Client } from 'pg';
import { rootLogger } from '@paykit/runtime';

/** Statement texts prepared per process at most (each connection keeps a plan for each). */
const MAX_PREPARED = 200;

interface Marked {
  name: string;
  /** Replanned statements: how long one connection keeps a preparation before making it afresh. */
  replanAfterMs?: number;
}

const prepared = new Map<string, Marked>();

/** How long a batch statement's preparation lasts (`replanAfterMs`): under load it runs hundreds of times on one plan, and a plan made for other table sizes costs at most this long. */
export const BATCH_PLAN_MAX_AGE_MS = 5_000;

export interface PreparedStatementOptions {
  /**
   * For statements whose best plan depends on how big their tables are (batch statements that
   * join, rank or anti-join): each connection prepares the statement afresh once its preparation
   * is this old, so a generic plan never outlives the table sizes it was made for by more than
   * this. PostgreSQL plans the first five executions of a preparation for their own parameters,
   * then may settle on one generic plan made from the sizes of that moment.
   */
  replanAfterMs?: number;
}

/**
 * Marks a statement text as one to prepare once per connection (distributed mode), and returns
 * it. PostgreSQL parses and plans an unnamed statement on every execution; for a hot statement
 * that is most of its cost (measured here: 500 us against 230 us of database CPU for the card
 * authorization's insert; 1.2-2 ms of planning for the webhooks inbox's batch). After a few
 * executions PostgreSQL may switch a prepared statement to one generic plan, kept until the
 * table is next analysed, so a plan chosen while a table was empty must still be right when it
 * is large. Key lookups, single-row writes and recordset inserts are such statements. A batch
 * statement may be prepared with `replanAfterMs` instead (the webhooks inbox is): a plan made on
 * an empty table scanned a large backlog (measured: 26 ms and 144 ms per batch for the outbox
 * relay's claim and the webhooks inbox, against under 1 ms planned afresh), and then lasts only
 * that long. The ledger's batches and the two claims (relay, scheduler) stay unprepared.
 */
export function preparedStatement(text: string, options: PreparedStatementOptions = {}): string {
  if (!prepared.has(text) && prepared.size < MAX_PREPARED) prepared.set(text, { name: `paykit_${prepared.size + 1}`, replanAfterMs: options.replanAfterMs });
  return text;
}

/** A replanned statement's current preparation on one connection. */
interface Preparation {
  name: string;
  since: number;
}

/** pg's own records on a client (internal: the prepared-statements specs, unit and distributed, fail if they change). */
interface PgInternals {
  connection: { parsedStatements: Record<string, string>; submittedNamedStatements: Record<string, string> };
  _queryQueue: Array<{ name?: string }>;
}

/**
 * The `pg` client of every service database in distributed mode: it runs marked statements
 * prepared. pg-pool builds its connections from this class (the `Client` option), and each
 * `query(text, values)` of a marked text becomes pg's named query config (`{name, text, values}`),
 * which pg prepares once per connection. A replanned statement gets a new name once its
 * preparation is old, and the old one is deallocated, queued behind the queries that use it;
 * `prepared-statements.spec.ts` fails if pg stops honouring any of it.
 */
export class PreparingClient extends Client {
  private readonly preparations = new Map<string, Preparation>();
  private generation = 0;

  constructor(config?: ConstructorParameters<typeof Client>[0]) {
    super(config);
    // pg-pool listens for a connection's errors only while it is idle. One ended by the server
    // (pg_terminate_backend, a failover) while checked out between two queries would emit an
    // error nobody hears, and that ends the process. Heard here, it is logged; the client is no
    // longer queryable, so its holder's next query fails (and is retried), and the pool drops it
    // when it comes back.
    this.on('error', (error: Error) => rootLogger().child({ component: 'database' }).warn(`A checked-out database connection failed: ${error.message}`));
  }

  /** The name `marked` runs under on this connection now. */
  nameFor(marked: Marked): string {
    if (marked.replanAfterMs === undefined) return marked.name;
    const now = Date.now();
    const current = this.preparations.get(marked.name);
    if (current && now - current.since < marked.replanAfterMs) return current.name;
    const next = { name: `${marked.name}_${++this.generation}`, since: now };
    this.preparations.set(marked.name, next);
    if (current) this.deallocate(current.name);
    return next.name;
  }

  /**
   * Deallocates a statement this connection prepared, or will have prepared by the time the
   * DEALLOCATE runs (a query using it is still queued). One whose preparation failed is not on the
   * server: deallocating it would fail the caller's transaction, so it is only forgotten.
   */
  private deallocate(name: string): void {
    const pg = this as unknown as PgInternals;
    const forget = (): void => {
      delete pg.connection.parsedStatements[name];
    };
    const onServer =
      pg.connection.parsedStatements[name] !== undefined || pg.connection.submittedNamedStatements[name] !== undefined || pg._queryQueue.some((query) => query.name === name);
    if (!onServer) return forget();
    // A failure (the connection is closing, or its transaction failed already) leaves one plan on a session that ends with it.
    const done = Reflect.apply(pgQuery(), this, [`DEALLOCATE ${name}`]) as Promise<unknown>;
    done.then(forget, forget);
  }
}

/**
 * pg's own query, looked up at each call rather than once: tracing's instrumentation wraps it after
 * this module loaded (libs/runtime tracing.ts), and a query must go through the wrapper.
 */
function pgQuery(): (...args: unknown[]) => unknown {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the client as `this`
  return Client.prototype.query;
}

// Defined rather than overridden: `pg`'s typings overload `query` a dozen ways, and this forwards every one unchanged.
Object.defineProperty(PreparingClient.prototype, 'query', {
  configurable: true,
  writable: true,
  value: function preparingQuery(this: PreparingClient, ...args: unknown[]): unknown {
    const [text, values] = args;
    const marked = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? prepared.get(text) : undefined;
    const result: unknown = Reflect.apply(pgQuery(), this, marked === undefined ? args : [{ name: this.nameFor(marked), text, values }]);
    return result;
  },
});
