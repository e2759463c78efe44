import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { environmentTenantId, SeedSandboxRequest } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { ConfigError, createRootLogger } from '@paykit/runtime';
import { validateContract } from '@paykit/validation';
import { CredentialsService } from '../../gateway/src/auth/credentials.service';
import { printCredentialsBanner } from '../../gateway/src/http/banner';
import { SandboxSeedService } from '../../gateway/src/sandbox-snapshots/sandbox-seed.service';
import { RunningStack, startStack } from './stack';

/**
 * `npm start -- --seed <file>`: the sandbox platform starts each run from the file's customers and
 * balances (the body of POST /sandbox/seed; its state reset first unless the file says `"reset": false`).
 */
async function seedFromFile(stack: RunningStack, file: string): Promise<number> {
  const request = validateContract(SeedSandboxRequest, JSON.parse(readFileSync(file, 'utf8')) as unknown);
  const platform = (await stack.http.get(CredentialsService).listPlatforms())[0];
  const caller = { platformId: environmentTenantId(platform.id, 'sandbox'), environment: 'sandbox' as const, requestId: 'seed' };
  const seeded = await stack.http.get(SandboxSeedService).seed(caller, { ...request, reset: request.reset ?? true });
  return seeded.customers.length;
}

/** `npm start`: the whole API in one process, no database or broker to install. */
async function main(): Promise<void> {
  const startedAt = Date.now();
  const logger = createRootLogger({ level: process.env.LOG_LEVEL ?? 'info' });
  let stack;
  try {
    stack = await startStack('embedded');
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // Lets `npm run platform` refuse to open the same PGlite files while this process runs.
  writeFileSync(join(stack.config.embeddedDataDir, 'paykit.pid'), String(process.pid));
  logger.info({ mode: 'embedded', url: stack.url, startupMs: Date.now() - startedAt, dataDir: stack.config.embeddedDataDir }, 'paykit ready');
  printCredentialsBanner(stack.gatewayConfig, stack.credentials);
  const seedFile = parseArgs({ options: { seed: { type: 'string' } }, strict: false }).values.seed;
  if (typeof seedFile === 'string') {
    try {
      logger.info({ file: seedFile, customers: await seedFromFile(stack, seedFile) }, 'sandbox seeded');
    } catch (error) {
      const detail = error instanceof ServiceError ? JSON.stringify(error.toJSON()) : (error as Error).message;
      process.stderr.write(`--seed ${seedFile}: ${detail}\n`);
      await stack.close();
      process.exit(1);
    }
  }
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'paykit stopping');
    await stack.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

void main();
