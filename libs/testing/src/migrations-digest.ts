import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');

let digest: string | undefined;

/**
 * A digest of every migration in the tree (any file under a `migrations` folder of apps/ or libs/):
 * a migrated template made before a migration was added or changed is never used after it.
 * Read once per process.
 */
export function migrationsDigest(): string {
  if (digest) return digest;
  const hash = createHash('sha256');
  const walk = (dir: string, inMigrations: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, inMigrations || entry.name === 'migrations');
      else if (inMigrations) hash.update(path.slice(ROOT.length)).update(readFileSync(path));
    }
  };
  for (const top of ['apps', 'libs']) walk(join(ROOT, top), false);
  digest = hash.digest('hex').slice(0, 16);
  return digest;
}
