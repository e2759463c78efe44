import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, createRootLogger } from '@paykit/runtime';
import { printCredentialsBanner } from '../../gateway/src/http/banner';
import { startStack } from './stack';

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
