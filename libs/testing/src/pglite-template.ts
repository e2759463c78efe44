import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

const ROOT = resolve(__dirname, '..', '..', '..');
const TEMPLATE = join(ROOT, 'tmp', 'pglite-template');
const LOCK = join(ROOT, 'tmp', 'pglite-template.lock');

/**
 * A fresh embedded database directory for one test stack. Creating a PGlite cluster takes
 * seconds, so one template is made per machine (in a child process) and copied per stack.
 */
export function freshPgliteDataDir(): string {
  if (!existsSync(join(TEMPLATE, 'PG_VERSION'))) createTemplate();
  const dir = join(ROOT, 'tmp', `pglite-${process.pid}-${randomBytes(4).toString('hex')}`);
  cpSync(TEMPLATE, dir, { recursive: true });
  return dir;
}

export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function createTemplate(): void {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  // Several jest workers may get here at once: one creates, the others wait for it.
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      break;
    } catch {
      if (existsSync(join(TEMPLATE, 'PG_VERSION'))) return;
      if (lockHolderIsGone()) {
        rmSync(LOCK, { recursive: true, force: true });
        continue;
      }
      if (waited > 60_000) throw new Error('Timed out waiting for the PGlite template');
      spawnSync('sleep', ['0.2']);
    }
  }
  try {
    if (existsSync(join(TEMPLATE, 'PG_VERSION'))) return;
    const building = `${TEMPLATE}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    const script = `require('@electric-sql/pglite').PGlite.create({ dataDir: ${JSON.stringify(building)} }).then((db) => db.close())`;
    const result = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) throw new Error('Could not create the PGlite template');
    // A rename is atomic: a run killed here leaves no half-copied template that looks complete.
    rmSync(TEMPLATE, { recursive: true, force: true });
    renameSync(building, TEMPLATE);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** A run killed while building the template leaves its lock behind; a later run takes it over. */
function lockHolderIsGone(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
  } catch {
    return false; // the holder has made the directory but not yet written its pid
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}
