// Static check of the client written from the reference document (test/reference-client): its
// types are generated from ../shared/reference/openapi.yaml with openapi-typescript, then the
// client and its journey are type-checked against them. Skipped, with a line, when the reference
// document is absent. `npm test` runs it beside the other type checks; the journey itself runs in
// test/e2e/reference-client.e2e-spec.ts.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const DOCUMENT = path.resolve(ROOT, '..', 'shared', 'reference', 'openapi.yaml');
const CLIENT = path.join(ROOT, 'test', 'reference-client');

if (!fs.existsSync(DOCUMENT)) {
  process.stdout.write(`!! SKIPPED the reference client's type check: ${DOCUMENT} is absent\n`);
  process.exit(0);
}
const generator = path.join(path.dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js');
// Defaults do not make a property required: a client may omit it.
const steps = [
  [generator, DOCUMENT, '--default-non-nullable', 'false', '-o', path.join(CLIENT, 'generated', 'reference-api.ts')],
  [require.resolve('typescript/bin/tsc'), '--noEmit', '-p', path.join(CLIENT, 'tsconfig.json')],
];
for (const args of steps) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: ROOT });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
