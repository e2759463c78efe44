import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { ConfigError } from '@paykit/runtime';

/** Values arrive as text like `pg` sends them; PGlite's own serializers are stricter than PostgreSQL's. */
function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

const TEXT_SERIALIZED_TYPES = [16, 20, 21, 23, 25, 114, 700, 701, 1043, 1082, 1114, 1184, 1700, 2950, 3802];

/**
 * The embedded database: one PGlite instance per process, one schema per service
 * (a PGlite instance costs ~250 MB and seconds to start, so one is shared).
 * PGlite runs a single session, so whole connections — and therefore transactions —
 * are handed out one at a time, never interleaved.
 */
export class PgliteHost {
  private queue: Promise<void> = Promise.resolve();
  private activeSchema?: string;
  private readonly createdSchemas = new Set<string>();

  private constructor(readonly db: PGlite) {}

  /** `dataDir` is a directory, or `memory` for a throwaway database. */
  static async open(dataDir: string): Promise<PgliteHost> {
    // Loaded lazily: distributed processes never pay for the WASM module.
    const { PGlite } = await import('@electric-sql/pglite');
    const options = {
      // PGlite prints its server's output (notices, errors) with console only at debug > 0;
      // at 0 errors reach TypeORM as exceptions and are logged, redacted, by DatabaseLogger.
      debug: 0 as const,
      // int8 and numeric stay strings (as with `pg`): amounts must never pass through a float.
      parsers: { 20: (v: string) => v, 1700: (v: string) => v },
      serializers: Object.fromEntries(TEXT_SERIALIZED_TYPES.map((oid) => [oid, toText])),
    };
    if (dataDir === 'memory') return new PgliteHost(await PGlite.create(options));
    const dir = resolve(dataDir);
    initialiseDataDir(dir);
    return new PgliteHost(await PGlite.create({ ...options, dataDir: dir }));
  }

  /** Waits for exclusive use of the session, switched to `schema`; call the returned release when done. */
  async acquire(schema: string): Promise<() => void> {
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((done) => (release = done));
    await previous;
    try {
      if (this.activeSchema !== schema) {
        const create = this.createdSchemas.has(schema) ? '' : `CREATE SCHEMA IF NOT EXISTS "${schema}"; `;
        await this.db.exec(`${create}SET search_path TO "${schema}"`);
        this.createdSchemas.add(schema);
        this.activeSchema = schema;
      }
    } catch (error) {
      release();
      throw error;
    }
    let released = false;
    return () => {
      if (!released) {
        released = true;
        release();
      }
    };
  }

  async close(): Promise<void> {
    await this.queue;
    await this.db.close();
  }
}

/**
 * Creating a cluster (initdb) inflates a process to ~750 MB that WASM never gives back;
 * doing it in a short-lived child keeps the server itself near 300 MB.
 */
function initialiseDataDir(dir: string): void {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  // initdb refuses a directory with anything in it, with nothing that says so: say it here.
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new ConfigError([`DATA_DIR ${dir} holds other files and no database: give it a new or empty directory`]);
  }
  mkdirSync(dir, { recursive: true });
  const script = `require('@electric-sql/pglite').PGlite.create({ dataDir: ${JSON.stringify(dir)} }).then((db) => db.close())`;
  // Its output is kept out of the process's own stdout (which carries only logger lines).
  const result = spawnSync(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'], cwd: process.cwd(), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`Could not initialise the embedded database in ${dir}: ${String(result.stderr).slice(-2000)}`);
}

const hosts = new Map<string, Promise<PgliteHost>>();

/** One host per data directory per process; `memory` hosts are shared too. */
export function pgliteHost(dataDir: string): Promise<PgliteHost> {
  const key = dataDir === 'memory' ? dataDir : resolve(dataDir);
  let host = hosts.get(key);
  if (!host) {
    host = PgliteHost.open(key);
    hosts.set(key, host);
    host.catch(() => hosts.delete(key));
  }
  return host;
}

export async function closePgliteHosts(): Promise<void> {
  const all = [...hosts.values()];
  hosts.clear();
  await Promise.all(all.map(async (host) => (await host).close()));
}
