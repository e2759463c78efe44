import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The real API's public document, beside the project (`../shared/reference`), when it is there. */
export const REFERENCE_DOCUMENT = resolve(__dirname, '../../../shared/reference/openapi.yaml');
export const REFERENCE_JSON = resolve(__dirname, '../../../shared/reference/openapi.json');
const GENERATED = join(__dirname, 'generated', 'reference-api.ts');

export function referenceDocumentPresent(): boolean {
  return existsSync(REFERENCE_DOCUMENT);
}

/** Types of every path, operation and schema of the reference document (openapi-typescript's CLI), written to `generated/` (ignored by git). */
export function generateReferenceTypes(): string {
  const cli = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js');
  // Defaults do not make a property required: a client may omit it.
  const result = spawnSync(process.execPath, [cli, REFERENCE_DOCUMENT, '--default-non-nullable', 'false', '-o', GENERATED], { encoding: 'utf8' });
  if (result.status !== 0 || !existsSync(GENERATED)) throw new Error(`openapi-typescript failed: ${result.stdout}${result.stderr}`);
  return GENERATED;
}

/** Type-checks the client written against the generated types; the compiler's report when it does not. */
export function typeCheckReferenceClient(): { ok: boolean; report: string } {
  const tsc = require.resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', join(__dirname, 'tsconfig.json')], { encoding: 'utf8' });
  return { ok: result.status === 0, report: `${result.stdout}${result.stderr}` };
}
