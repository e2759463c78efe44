import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The operator tools open an embedded data directory only while `npm start` is not running on it (PGlite serves one process). */
export function assertEmbeddedServerStopped(dataDir: string): void {
  const pidFile = join(dataDir, 'paykit.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  try {
    process.kill(pid, 0);
  } catch {
    return;
  }
  throw new Error(`The embedded server (pid ${pid}) is using ${dataDir}; stop it first (PGlite serves one process).`);
}
