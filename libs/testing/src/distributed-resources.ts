import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { connect } from 'nats';
import { databaseUrlVariable, SERVICE_NAMES } from '@paykit/runtime';
import { migrationsDigest } from './migrations-digest';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const NATS_TEST_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

export interface DistributedResources {
  env: Record<string, string>;
  namespace: string;
  drop(): Promise<void>;
}

export interface DistributedResourcesOptions {
  /**
   * Brings a stack's databases up to date (it starts and stops a stack on `env`). Given, each
   * service's database is a copy of a migrated template database, made once per server per state
   * of the migrations (`migrationsDigest`); without it the databases are empty and the stack
   * migrates them itself.
   */
  migrate?: (env: Record<string, string>) => Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const databaseName = (prefix: string, service: string): string => `${prefix}_${service.replace(/-/g, '_')}`;

/** A fresh PostgreSQL database per service and a NATS namespace, for one distributed stack. */
export async function createDistributedResources(options: DistributedResourcesOptions = {}): Promise<DistributedResources> {
  const run = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const template = options.migrate ? await migratedTemplate(options.migrate) : undefined;
  const admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  const env: Record<string, string> = { NATS_URL: NATS_TEST_URL, NATS_NAMESPACE: run };
  const databases: string[] = [];
  try {
    for (const service of SERVICE_NAMES) {
      const database = databaseName(`paykit_${run}`, service);
      await admin.query(`CREATE DATABASE ${database}${template ? ` TEMPLATE ${databaseName(template, service)}` : ''}`);
      databases.push(database);
      env[databaseUrlVariable(service)] = withDatabase(POSTGRES_ADMIN_URL, database);
    }
  } finally {
    await admin.end();
  }
  return { env, namespace: run, drop: () => dropResources(databases, run) };
}

async function dropResources(databases: string[], namespace: string): Promise<void> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    for (const database of databases) await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } finally {
    await client.end();
  }
  const nc = await connect({ servers: [NATS_TEST_URL] });
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(`${namespace.toUpperCase()}_EVENTS`).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

const TEMPLATE_PREFIX = 'paykit_tpl_';

/**
 * The migrated template databases' name prefix, made first if missing: under an advisory lock, so
 * of several jest workers one migrates and the others wait; a set is complete once every one of
 * its databases is marked a template (the last step), so a run killed half-way is made again.
 * Templates of older migrations are dropped on the way.
 */
async function migratedTemplate(migrate: (env: Record<string, string>) => Promise<void>): Promise<string> {
  const prefix = `${TEMPLATE_PREFIX}${migrationsDigest()}`;
  const admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext('paykit:test-templates'))`);
    const existing = await admin.query<{ datname: string; datistemplate: boolean }>(`SELECT datname, datistemplate FROM pg_database WHERE datname LIKE $1`, [
      `${TEMPLATE_PREFIX}%`,
    ]);
    const ours = SERVICE_NAMES.map((service) => databaseName(prefix, service));
    const complete = ours.every((name) => existing.rows.some((row) => row.datname === name && row.datistemplate));
    if (complete) return prefix;
    for (const row of existing.rows) {
      await admin.query(`ALTER DATABASE ${row.datname} IS_TEMPLATE false`);
      await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    }
    const namespace = `tpl${randomBytes(3).toString('hex')}`;
    const env: Record<string, string> = { NATS_URL: NATS_TEST_URL, NATS_NAMESPACE: namespace };
    for (const service of SERVICE_NAMES) {
      await admin.query(`CREATE DATABASE ${databaseName(prefix, service)}`);
      env[databaseUrlVariable(service)] = withDatabase(POSTGRES_ADMIN_URL, databaseName(prefix, service));
    }
    await migrate(env);
    for (const name of ours) await admin.query(`ALTER DATABASE ${name} IS_TEMPLATE true`);
    await dropResources([], namespace);
    return prefix;
  } finally {
    await admin.end(); // ends the session, and with it the advisory lock
  }
}
