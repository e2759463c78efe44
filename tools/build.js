// Compiles apps/, libs/ and tools/ to dist/ with swc (about a second for the whole tree),
// rewriting the @paykit/* path aliases to relative requires. Type checking is `npm run typecheck`.
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'dist');
const swcrc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc.json'), 'utf8'));
delete swcrc.$comment;
const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));

const SKIP = /\.(spec|e2e-spec)\.ts$|\.d\.ts$/;
/** Browser code: Vite builds it (buildConsole below), not this Node pass. */
const CONSOLE_DIR = path.join(root, 'apps', 'console');
const CONSOLE_OUT = path.join(outDir, 'console');
/** What the console's bundle is made of besides its own directory (the spec's suffix tables). */
const CONSOLE_INPUTS = [CONSOLE_DIR, path.join(root, 'libs', 'contracts', 'src', 'cards', 'sandbox.ts')];

function* sources(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && full !== CONSOLE_DIR) yield* sources(full);
    } else if (entry.name.endsWith('.ts') && !SKIP.test(entry.name)) {
      yield full;
    } else if (/\.(html|css|svg|json)$/.test(entry.name) && full.includes(`${path.sep}assets${path.sep}`)) {
      yield full;
    }
  }
}

function build() {
  let compiled = 0;
  for (const top of ['apps', 'libs', 'tools']) {
    const dir = path.join(root, top);
    if (!fs.existsSync(dir)) continue;
    for (const file of sources(dir)) {
      const relative = path.relative(root, file);
      const target = path.join(outDir, file.endsWith('.ts') ? relative.replace(/\.ts$/, '.js') : relative);
      const stat = fs.statSync(file);
      if (fs.existsSync(target) && fs.statSync(target).mtimeMs >= stat.mtimeMs) continue;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      if (!file.endsWith('.ts')) {
        fs.copyFileSync(file, target);
        continue;
      }
      const output = swc.transformFileSync(file, {
        ...swcrc,
        swcrc: false,
        filename: file,
        sourceFileName: path.relative(path.dirname(target), file),
        jsc: { ...swcrc.jsc, baseUrl: root, paths: compilerOptions.paths },
      });
      fs.writeFileSync(target, output.code + `\n//# sourceMappingURL=${path.basename(target)}.map`);
      if (output.map) fs.writeFileSync(`${target}.map`, output.map);
      compiled += 1;
    }
  }
  return compiled;
}

/**
 * Removes what no source produces any more: a stale `x.js` would shadow a new `x/index.js` (Node
 * resolves the file first), so a moved source must not leave its old output behind.
 */
function removeStale(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      removeStale(full);
      if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
      continue;
    }
    const source = path.join(root, path.relative(outDir, full).replace(/\.js(\.map)?$/, '.ts'));
    const copied = path.join(root, path.relative(outDir, full));
    if (!fs.existsSync(source) && !fs.existsSync(copied)) fs.rmSync(full);
  }
}

function newestMtime(file) {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(file)) if (entry !== 'node_modules') newest = Math.max(newest, newestMtime(path.join(file, entry)));
  return newest;
}

/**
 * The sandbox console (apps/console): static files under dist/console, served by the gateway at
 * /console/. Vite runs only when a source is newer than the last build (a second or two when it does).
 */
async function buildConsole() {
  const built = path.join(CONSOLE_OUT, 'index.html');
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= Math.max(...CONSOLE_INPUTS.map(newestMtime))) return false;
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: path.join(CONSOLE_DIR, 'vite.config.mjs') });
  return true;
}

async function main() {
  const started = Date.now();
  for (const top of ['apps', 'libs', 'tools']) if (fs.existsSync(path.join(outDir, top))) removeStale(path.join(outDir, top));
  const count = build();
  const consoleBuilt = await buildConsole();
  if (process.env.BUILD_VERBOSE) console.log(`built ${count} files${consoleBuilt ? ' and the console' : ''} in ${Date.now() - started} ms`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
