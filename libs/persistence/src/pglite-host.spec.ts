import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@paykit/runtime';
import { pgliteHost } from './pglite-host';

describe('pgliteHost', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'paykit-data-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a data directory that holds other files and no database, naming DATA_DIR', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'not a database');
    const opening = pgliteHost(dir);
    await expect(opening).rejects.toBeInstanceOf(ConfigError);
    await expect(opening).rejects.toThrow(`DATA_DIR ${dir} holds other files and no database`);
  });
});
