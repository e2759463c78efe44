import { EventEmitter } from 'node:events';
import { PgliteHost } from './pglite-host';

interface QueryResultLike {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: Array<{ name: string; dataTypeID: number }>;
}

type Release = (error?: unknown) => void;
type ConnectCallback = (error: Error | null, client?: PgliteClient, release?: Release) => void;

/** The part of a `pg` client TypeORM uses, answered by the shared PGlite session. */
class PgliteClient extends EventEmitter {
  constructor(private readonly host: PgliteHost) {
    super();
  }

  async query(text: string, params?: unknown[]): Promise<QueryResultLike> {
    const command = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? '';
    if (params && params.length > 0) {
      const result = await this.host.db.query(text, params.map(normaliseParam));
      return toPgResult(result, command);
    }
    // Parameterless text may hold several statements (migrations); pg returns the last result.
    const results = await this.host.db.exec(text);
    return toPgResult(results[results.length - 1] ?? { rows: [], fields: [], affectedRows: 0 }, command);
  }
}

function normaliseParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value)) return new Uint8Array(value);
  return value;
}

function toPgResult(result: { rows: unknown[]; fields: Array<{ name: string; dataTypeID: number }>; affectedRows?: number }, command: string): QueryResultLike {
  const rowCount = result.affectedRows && result.affectedRows > 0 ? result.affectedRows : result.rows.length;
  return { rows: result.rows, rowCount, command, fields: result.fields };
}

export interface PglitePoolOptions {
  pgliteHost: Promise<PgliteHost>;
  schema: string;
}

/**
 * A `pg.Pool` look-alike for TypeORM's postgres driver (`driver` option). Each connect
 * waits for the host's single session, so a transaction owns it from BEGIN to COMMIT.
 */
export class PglitePool extends EventEmitter {
  private readonly hostPromise: Promise<PgliteHost>;
  private readonly schema: string;

  constructor(options: PglitePoolOptions) {
    super();
    this.hostPromise = options.pgliteHost;
    this.schema = options.schema;
  }

  connect(callback: ConnectCallback): void {
    this.hostPromise
      .then(async (host) => {
        const release = await host.acquire(this.schema);
        callback(null, new PgliteClient(host), () => release());
      })
      .catch((error: Error) => callback(error));
  }

  async query(text: string, params?: unknown[]): Promise<QueryResultLike> {
    const host = await this.hostPromise;
    const release = await host.acquire(this.schema);
    try {
      return await new PgliteClient(host).query(text, params);
    } finally {
      release();
    }
  }

  end(callback?: (error?: Error) => void): void {
    // The host outlives a service's pool; it is closed once for the whole process.
    callback?.();
  }
}

/** What TypeORM expects as `driver`: an object with a `Pool` constructor. */
export function pgliteDriver(): { Pool: typeof PglitePool } {
  return { Pool: PglitePool };
}
