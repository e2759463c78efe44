import { Controller, DynamicModule, Inject, Injectable, Module, Optional } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource, EntityManager } from 'typeorm';
import { MessageEnvelope, ReplaceSandboxStateRequest, SandboxStateExportSubject, SandboxStateReplaceSubject, ServiceSandboxState } from '@paykit/contracts';
import { ServiceName } from '@paykit/runtime';
import { CallerContextPipe, EnvelopePipe } from '@paykit/transport';
import { Clock } from '../clock/clock';

export function sandboxStateExportSubject(service: ServiceName): SandboxStateExportSubject {
  return `${service}.sandbox-state.export`;
}

export function sandboxStateReplaceSubject(service: ServiceName): SandboxStateReplaceSubject {
  return `${service}.sandbox-state.replace`;
}

/**
 * Tables that are never part of a platform's sandbox state: messages in transit (the outbox,
 * parked dead letters) and settings of the sandbox tools themselves (webhook delivery faults).
 */
const NOT_STATE = new Set(['outbox_event', 'dead_letter', 'webhook_delivery_fault', 'migrations', 'typeorm_metadata']);

/**
 * Given, the only tables (and the tables hanging off them) that are a platform's sandbox state in
 * this service: the gateway's agents, not its API tokens, snapshots or faults.
 */
export const SANDBOX_STATE_TABLES = Symbol('SANDBOX_STATE_TABLES');

/** Runs a replace's statements in one transaction (by default the store's own). */
export type StateTransaction = (work: (manager: EntityManager) => Promise<void>) => Promise<void>;

/** A table holding rows of a platform, and how its rows are told: its own column, or its parent's rows through a foreign key. */
interface StateTable {
  name: string;
  /** The SQL condition that selects the platform's rows (`$1`) of this table under `alias`. */
  scope(alias: string, depth?: number): string;
}

interface ForeignKey {
  child: string;
  parent: string;
  child_columns: string[];
  parent_columns: string[];
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * One service's part of a platform's sandbox state (snapshots, restores, resets): every table of
 * the service's schema with a `platform_id` column, and every table whose rows hang off such a
 * table by a foreign key (a posting off its journal entry, an attempt off its delivery). Found in
 * the catalog, so a table a migration adds is in the state without anyone listing it.
 *
 * `replace` swaps the platform's rows for a snapshot's in one transaction: every state table's
 * rows of the platform deleted (children first), the snapshot's inserted (parents first), so the
 * database's constraints hold at commit as for any write: each re-inserted journal entry must
 * balance (the deferred trigger), foreign keys must resolve. Ledger rows are immutable except to
 * this one statement (`paykit.sandbox_state` = `replace`, which the payments migration
 * SandboxStateReplace lets delete: a platform's whole ledger at once, never part of it).
 */
@Injectable()
export class SandboxStateStore {
  private tables?: Promise<StateTable[]>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Optional() @Inject(SANDBOX_STATE_TABLES) private readonly only?: readonly string[],
  ) {}

  /** The platform's rows of every state table, read in one repeatable-read transaction (one consistent view). */
  async export(platformId: string): Promise<ServiceSandboxState> {
    const tables = await this.stateTables();
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const out: Record<string, string> = {};
      for (const table of tables) {
        const [row] = await manager.query<{ rows: string; count: number }[]>(
          `SELECT coalesce(json_agg(t), '[]')::text AS rows, count(*)::int AS count FROM ${quote(table.name)} t WHERE ${table.scope('t')}`,
          [platformId],
        );
        if (row.count > 0) out[table.name] = row.rows;
      }
      return { tables: out };
    });
  }

  /**
   * Makes the platform's rows of every state table those of `state` (a table it lacks: none), in
   * one transaction: the store's own, or the one `transaction` runs (announcing what it changed).
   */
  async replace(platformId: string, state: ServiceSandboxState, transaction: StateTransaction = (work) => this.dataSource.transaction(work)): Promise<number> {
    const tables = await this.stateTables();
    // Read before the transaction: PGlite runs one session, which the transaction holds.
    const schema = await this.schema();
    await transaction(async (manager) => {
      await manager.query(`SELECT set_config('paykit.sandbox_state', 'replace', true)`);
      for (const table of [...tables].reverse()) await manager.query(`DELETE FROM ${quote(table.name)} t WHERE ${table.scope('t')}`, [platformId]);
      for (const table of tables) {
        const rows = state.tables[table.name];
        if (rows !== undefined) await insert(manager, schema, table.name, rows);
      }
    });
    // Its test clock may have moved back: read it afresh.
    this.clock.forget(platformId);
    return tables.length;
  }

  private schemaName?: Promise<string>;

  private schema(): Promise<string> {
    this.schemaName ??= this.dataSource.query<{ schema: string }[]>(`SELECT current_schema() AS schema`).then((rows) => rows[0].schema);
    return this.schemaName;
  }

  /** The state tables, parents before children (found once per process: the schema changes only by migrations, at start). */
  private stateTables(): Promise<StateTable[]> {
    this.tables ??= this.discover().catch((error: unknown) => {
      this.tables = undefined;
      throw error;
    });
    return this.tables;
  }

  private async discover(): Promise<StateTable[]> {
    const columns = await this.dataSource.query<{ table_name: string; scoped: boolean }[]>(
      `SELECT c.relname AS table_name,
              EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'platform_id' AND NOT a.attisdropped) AS scoped
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')`,
    );
    const keys = await this.dataSource.query<ForeignKey[]>(
      `SELECT cl.relname AS child, pl.relname AS parent,
              (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY k(num, ord)
                 JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num) AS child_columns,
              (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY k(num, ord)
                 JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num) AS parent_columns
         FROM pg_constraint con
         JOIN pg_class cl ON cl.oid = con.conrelid JOIN pg_class pl ON pl.oid = con.confrelid
         JOIN pg_namespace n ON n.oid = cl.relnamespace
        WHERE con.contype = 'f' AND n.nspname = current_schema()`,
    );
    const found = new Map<string, StateTable>();
    const excluded = (table: string) => NOT_STATE.has(table) || (this.only !== undefined && !this.only.includes(table));
    for (const { table_name, scoped } of columns) {
      if (scoped && !excluded(table_name)) found.set(table_name, { name: table_name, scope: (alias) => `${alias}.platform_id = $1` });
    }
    // Tables without the column whose rows hang off a state table, however deep.
    for (let added = true; added;) {
      added = false;
      for (const key of keys) {
        const parent = found.get(key.parent);
        if (found.has(key.child) || excluded(key.child) || !parent || key.child === key.parent) continue;
        found.set(key.child, {
          name: key.child,
          scope: (alias, depth = 0) => {
            const inner = `p${depth}`;
            const childColumns = key.child_columns.map((column) => `${alias}.${quote(column)}`).join(', ');
            const parentColumns = key.parent_columns.map((column) => `${inner}.${quote(column)}`).join(', ');
            return `(${childColumns}) IN (SELECT ${parentColumns} FROM ${quote(parent.name)} ${inner} WHERE ${parent.scope(inner, depth + 1)})`;
          },
        });
        added = true;
      }
    }
    return parentsFirst([...found.values()], keys);
  }
}

async function insert(manager: EntityManager, schema: string, table: string, rows: string): Promise<void> {
  // Identity columns keep their saved values (a delivery's receipt sequence orders it). The row
  // type is schema-qualified: pg_catalog comes first in type lookups (a table named `box` is not the geometric type).
  await manager.query(`INSERT INTO ${quote(table)} OVERRIDING SYSTEM VALUE SELECT * FROM jsonb_populate_recordset(null::${quote(schema)}.${quote(table)}, $1::jsonb)`, [rows]);
}

/** Orders tables so that every table comes after the tables its foreign keys point at (ties by name). */
function parentsFirst(tables: StateTable[], keys: ForeignKey[]): StateTable[] {
  const names = new Set(tables.map((table) => table.name));
  const parentsOf = new Map(
    tables.map((table) => [table.name, new Set(keys.filter((key) => key.child === table.name && key.parent !== table.name && names.has(key.parent)).map((key) => key.parent))]),
  );
  const ordered: StateTable[] = [];
  const placed = new Set<string>();
  const pending = [...tables].sort((a, b) => a.name.localeCompare(b.name));
  while (pending.length > 0) {
    const index = pending.findIndex((table) => [...parentsOf.get(table.name)!].every((parent) => placed.has(parent)));
    // A cycle of foreign keys (none today) is taken in name order rather than looping.
    const [next] = pending.splice(index < 0 ? 0 : index, 1);
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}

/** A service's handlers of `<service>.sandbox-state.export|replace` (the gateway orchestrates snapshots, restores and resets). */
export function sandboxStateHandlersModule(service: ServiceName): DynamicModule {
  @Controller()
  class SandboxStateHandlers {
    constructor(private readonly store: SandboxStateStore) {}

    @MessagePattern(sandboxStateExportSubject(service))
    export(@Payload(new CallerContextPipe()) { ctx }: MessageEnvelope<unknown>): Promise<ServiceSandboxState> {
      return this.store.export(ctx.platformId);
    }

    @MessagePattern(sandboxStateReplaceSubject(service))
    async replace(@Payload(new EnvelopePipe(ReplaceSandboxStateRequest)) { ctx, payload }: MessageEnvelope<ReplaceSandboxStateRequest>): Promise<{ tables: number }> {
      return { tables: await this.store.replace(ctx.platformId, payload) };
    }
  }
  @Module({ controllers: [SandboxStateHandlers], providers: [SandboxStateStore] })
  class SandboxStateHandlersModule {}
  return { module: SandboxStateHandlersModule };
}
