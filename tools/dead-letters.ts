/**
 * `npm run dead-letters -- <command>`: messages and jobs parked in the services' dead-letter tables.
 *
 *   list [--service <name>]   every parked message, newest failure first (no payloads)
 *   show <id>                 one message whole: payload, error, stack, attempts
 *   replay <id>               re-publish / re-queue it once (the owning service does it)
 *
 * Distributed mode: reads every service whose <SERVICE>_DATABASE_URL is set. Embedded mode: uses
 * DATA_DIR (default .data) and must run while `npm start` is stopped (PGlite is single-process);
 * a replay then happens at the next start.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { closePgliteHosts, openServiceDataSource, serviceDataSourceOptions } from '@paykit/persistence';
import { ConfigError, databaseUrlVariable, loadRuntimeConfig, SERVICE_NAMES, ServiceName } from '@paykit/runtime';
import { deadLetterCommand } from './dead-letters/commands';
import { assertEmbeddedServerStopped } from './embedded-data';

async function main(): Promise<void> {
  const configured = SERVICE_NAMES.filter((service) => Boolean(process.env[databaseUrlVariable(service)]));
  const distributed = configured.length > 0;
  const services: readonly ServiceName[] = distributed ? configured : SERVICE_NAMES;
  const config = loadRuntimeConfig(process.env, distributed ? 'distributed' : 'embedded', services);
  if (!distributed) assertEmbeddedServerStopped(config.embeddedDataDir);
  const databases = new Map<string, DataSource>();
  try {
    // Only the shared plumbing tables are read: no service's own entities or migrations.
    for (const service of services) databases.set(service, await openServiceDataSource(serviceDataSourceOptions(config, { service, entities: [], migrations: [] })));
    process.exitCode = await deadLetterCommand(process.argv.slice(2), databases, (text) => process.stdout.write(text));
  } finally {
    for (const dataSource of databases.values()) await dataSource.destroy();
    await closePgliteHosts();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
