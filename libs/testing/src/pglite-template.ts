import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { migrationsDigest } from './migrations-digest';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const TMP = join(ROOT, 'tmp');
const TEMPLATE = join(TMP, 'pglite-template');

/**
 * A fresh embedded database directory for one test: an empty cluster. Creating a PGlite cluster
 * takes seconds, so one template is made per machine (in a child process) and copied per test.
 */
export function freshPgliteDataDir(): string {
  return copyOf(emptyClusterTemplate());
}

/** The empty cluster's template directory, made once per machine (in a child process). */
function emptyClusterTemplate(): string {
  if (!existsSync(join(TEMPLATE, 'PG_VERSION'))) {
    for (;;) {
      if (takeLock(TEMPLATE)) break;
      if (existsSync(join(TEMPLATE, 'PG_VERSION'))) return TEMPLATE;
      spawnSync('sleep', ['0.2']);
    }
    try {
      if (!existsSync(join(TEMPLATE, 'PG_VERSION'))) {
        const building = buildingDirFor(TEMPLATE);
        const script = `require('@electric-sql/pglite').PGlite.create({ dataDir: ${JSON.stringify(building)} }).then((db) => db.close())`;
        const result = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, stdio: 'inherit' });
        if (result.status !== 0) throw new Error('Could not create the PGlite template');
        publish(building, TEMPLATE);
      }
    } finally {
      releaseLock(TEMPLATE);
    }
  }
  return TEMPLATE;
}

/**
 * A fresh embedded database directory with every service's schema already migrated: a stack on it
 * starts in about a second instead of four. `migrate` brings a directory up to date (it starts and
 * stops a stack on it); it runs once per machine per state of the migrations (`migrationsDigest`),
 * in whichever jest worker gets there first, while the others wait for it.
 */
export async function freshMigratedPgliteDataDir(migrate: (dataDir: string) => Promise<void>): Promise<string> {
  const template = join(TMP, `pglite-migrated-${migrationsDigest()}`);
  if (!existsSync(join(template, 'PG_VERSION'))) {
    for (;;) {
      if (takeLock(template)) break;
      if (existsSync(join(template, 'PG_VERSION'))) return copyOf(template);
      await new Promise((done) => setTimeout(done, 200));
    }
    try {
      if (!existsSync(join(template, 'PG_VERSION'))) {
        const building = buildingDirFor(template);
        // Built beside the template (a rename cannot cross from the scratch directory's filesystem).
        cpSync(emptyClusterTemplate(), building, { recursive: true });
        await migrate(building);
        publish(building, template);
      }
    } finally {
      releaseLock(template);
    }
  }
  return copyOf(template);
}

export function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Where the per-test copies go: `PAYKIT_SCRATCH_DIR` when the test runner sets it (a memory-backed
 * directory: copying and removing a cluster's 1,500 files there costs a tenth of what it costs on
 * disk, and the database's own writes are cheaper too), otherwise tmp/ beside the templates.
 */
function scratchDir(): string {
  const dir = process.env.PAYKIT_SCRATCH_DIR;
  if (!dir) return TMP;
  mkdirSync(dir, { recursive: true });
  return dir;
}

function copyOf(template: string): string {
  const dir = join(scratchDir(), `pglite-${process.pid}-${randomBytes(4).toString('hex')}`);
  cpSync(template, dir, { recursive: true });
  return dir;
}

function buildingDirFor(template: string): string {
  const building = `${template}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  return building;
}

/** A rename is atomic: a run killed while building leaves no half-made template that looks complete. */
function publish(building: string, template: string): void {
  rmSync(template, { recursive: true, force: true });
  renameSync(building, template);
}

/**
 * Several jest workers may need a template at once: one builds it under a lock directory, the
 * others wait. A run killed while building leaves its lock behind; a later run takes it over.
 */
function takeLock(template: string): boolean {
  const lock = `${template}.lock`;
  mkdirSync(TMP, { recursive: true });
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch {
    if (lockHolderIsGone(lock)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function releaseLock(template: string): void {
  rmSync(`${template}.lock`, { recursive: true, force: true });
}

function lockHolderIsGone(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
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
