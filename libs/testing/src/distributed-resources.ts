import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { connect } from 'nats';
import { databaseUrlVariable, SERVICE_NAMES } from '@paykit/runtime';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const NATS_TEST_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

export interface DistributedResources {
  env: Record<string, string>;
  namespace: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A fresh PostgreSQL database per service and a NATS namespace, for one distributed stack. */
export async function createDistributedResources(): Promise<DistributedResources> {
  const run = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  const env: Record<string, string> = { NATS_URL: NATS_TEST_URL, NATS_NAMESPACE: run };
  const databases: string[] = [];
  try {
    for (const service of SERVICE_NAMES) {
      const database = `paykit_${run}_${service.replace(/-/g, '_')}`;
      await admin.query(`CREATE DATABASE ${database}`);
      databases.push(database);
      env[databaseUrlVariable(service)] = withDatabase(POSTGRES_ADMIN_URL, database);
    }
  } finally {
    await admin.end();
  }
  return {
    env,
    namespace: run,
    async drop() {
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
        await jsm.streams.delete(`${run.toUpperCase()}_EVENTS`).catch(() => undefined);
      } finally {
        await nc.close();
      }
    },
  };
}
