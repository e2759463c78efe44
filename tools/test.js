// `npm test`: everything CI runs, each phase printed with its time, and a summary at the end:
//   1. the browser the browser specs need (Debian's chromium, installed when missing);
//   2. unit specs and the behaviour suite (test/e2e, embedded mode) on three workers (two cores:
//      the third fills the time the others wait on a stack's start-up or an outcome);
//   3. on NATS + PostgreSQL, side by side, each one file at a time: the distributed suite (the e2e
//      specs tagged `@distributed`) and the infrastructure suite (test/distributed, transport and
//      database; test/processes, apps as processes): every stack has its own databases and NATS
//      namespace. Beside them, niced, the static checks: type check (API, console, reference
//      client), lint with the module-boundary rule, formatting; they take the CPU those suites
//      leave idle while they wait on servers and processes.
// `npm test -- <pattern...>`: only the unit and embedded specs whose path matches (no static
// checks), a developer's loop over one area; `--project unit|embedded|distributed|infrastructure` picks
// a suite (`npm run test:unit`, `test:e2e`, `test:distributed`, `test:infrastructure`, each taking patterns).
//
// Outside CI, what cannot be had here is skipped with one loud line (the distributed suite without
// its servers, the browser specs without chromium); under CI=true it is a failure.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const CI = process.env.CI === 'true';

/**
 * A memory-backed scratch directory for this run (tmpfs at /dev/shm where the machine has one):
 * every spec's database copy, NATS store and log lands there. On this machine's disk, copying and
 * removing one embedded cluster (1,500 files) took about a second of system time per spec file;
 * in memory a tenth. One directory per run, removed at its end; a killed run's is removed by the next.
 */
function scratchDirectory() {
  const parent = path.join('/dev/shm', `paykit-tests-${process.getuid?.() ?? 0}`);
  try {
    fs.mkdirSync(parent, { recursive: true });
    fs.accessSync(parent, fs.constants.W_OK);
  } catch {
    return undefined; // no tmpfs here: the specs use tmp/ and the system's temporary directory
  }
  for (const entry of fs.readdirSync(parent)) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      process.kill(pid, 0);
    } catch {
      fs.rmSync(path.join(parent, entry), { recursive: true, force: true });
    }
  }
  const dir = path.join(parent, String(process.pid));
  fs.mkdirSync(dir, { recursive: true });
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const SCRATCH = scratchDirectory();
const JEST_CACHE = path.join(require('node:os').tmpdir(), `jest_${process.getuid ? process.getuid().toString(36) : 'x'}`);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings=ExperimentalWarning`.trim(),
  ...(SCRATCH ? { PAYKIT_SCRATCH_DIR: SCRATCH, TMPDIR: SCRATCH } : {}),
};
const bin = {
  jest: require.resolve('jest/bin/jest'),
  tsc: require.resolve('typescript/bin/tsc'),
  nx: require.resolve('nx/bin/nx'),
  eslint: path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'),
  prettier: path.join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs'),
};
const phases = [];

/**
 * Runs one phase and records its verdict and time. `live` streams its output as it comes (jest);
 * otherwise the output is printed whole when it ends, so phases side by side do not interleave
 * line by line. `nice` lowers its priority under the phases beside it.
 */
async function phase(label, command, args, { live = false, nice = false } = {}) {
  const started = Date.now();
  if (live) process.stdout.write(`\n== ${label}\n`);
  const [file, argv] = nice ? ['nice', ['-n', '10', command, ...args]] : [command, args];
  const child = spawn(file, argv, { env, cwd: ROOT, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  const status = await new Promise((resolve) => child.on('close', resolve));
  const verdict = `${label}: ${status === 0 ? 'ok' : 'FAILED'} (${Math.round((Date.now() - started) / 1000)} s)`;
  phases.push(verdict);
  process.stdout.write(live ? `== ${verdict}\n` : `\n== ${label}\n${Buffer.concat(output).toString()}== ${verdict}\n`);
  return status === 0;
}

/** Node scripts one after another, niced, stopping at the first failure. */
async function chain(steps) {
  for (const [label, args] of steps) if (!(await phase(label, process.execPath, args, { nice: true }))) return false;
  return true;
}

function finish(ok) {
  process.stdout.write(`\n== phases\n${phases.map((line) => `   ${line}`).join('\n')}\n`);
  process.exit(ok ? 0 : 1);
}

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** Chromium for the browser specs: installed through the system's packages when missing. */
async function ensureChromium() {
  const answers = () => fs.existsSync(CHROMIUM) && spawnSync(CHROMIUM, ['--version'], { stdio: 'ignore' }).status === 0;
  if (answers()) return;
  const installed = await phase("chromium (installing Debian's package)", 'bash', [path.join(__dirname, 'ensure-chromium.sh')], { live: true });
  if (installed && answers()) return;
  if (CI) finish(false);
  // Outside CI the browser specs then skip quietly, and this is the one loud line.
  process.stdout.write(
    `\n!! SKIPPED the browser specs (docs, console, hosted KYC, passkeys): no chromium at ${CHROMIUM} and it could not be installed (tools/ensure-chromium.sh needs root or sudo)\n`,
  );
}

async function distributedServers() {
  const [postgres, nats] = await Promise.all([reachable('127.0.0.1', 5432), reachable('127.0.0.1', 4222)]);
  if (postgres && nats) return true;
  const missing = [!postgres && 'PostgreSQL on 127.0.0.1:5432', !nats && 'NATS on 127.0.0.1:4222'].filter(Boolean).join(' and ');
  if (CI) {
    process.stderr.write(`\nFAILED: the distributed suite needs ${missing}.\n`);
    finish(false);
  }
  process.stdout.write(`\n!! SKIPPED the distributed suite: ${missing} not reachable (see README, "Distributed mode").\n`);
  return false;
}

// --forceExit: a pass must end the run even if a library leaves a socket open after close (seen
// with NATS consumers); failures still exit non-zero. Two workers by default: jest's own default
// (cores minus one) runs every file one after another on a 2-core machine, and each spec must pass
// with the other core busy anyway.
// Each run's report lands in tmp/test-reports/<projects>.json (`node tools/test-counts.js` reads them).
const jest = (label, projects, { patterns = [], workers = 2 } = {}) =>
  phase(
    label,
    process.execPath,
    [
      bin.jest,
      '--selectProjects',
      ...projects,
      '--forceExit',
      // Jest's own default place, fixed here: TMPDIR points at the run's scratch directory, and the
      // transform cache must outlive the run.
      `--cacheDirectory=${JEST_CACHE}`,
      `--maxWorkers=${workers}`,
      '--json',
      `--outputFile=${path.join(ROOT, 'tmp', 'test-reports', `${projects.join('-')}.json`)}`,
      ...(patterns.length ? ['--testPathPatterns', ...patterns] : []),
    ],
    { live: true },
  );

/** `--project <unit|embedded|distributed>` and path patterns: a focused run, no static checks. */
function focus(args) {
  const projects = [];
  const patterns = [];
  for (let index = 0; index < args.length; index += 1) {
    if (args[index] === '--project') projects.push(args[(index += 1)]);
    else patterns.push(args[index]);
  }
  return { projects: projects.length > 0 ? projects : ['unit', 'embedded'], patterns, focused: args.length > 0 };
}

async function main() {
  fs.mkdirSync(path.join(ROOT, 'tmp', 'test-reports'), { recursive: true });
  const { projects, patterns, focused } = focus(process.argv.slice(2));
  if (focused) {
    if (projects.includes('embedded')) await ensureChromium();
    if ((projects.includes('distributed') || projects.includes('infrastructure')) && !(await distributedServers())) return finish(true);
    return finish(await jest(`${projects.join(' and ')} specs${patterns.length ? ` matching ${patterns.join(' ')}` : ''}`, projects, { patterns }));
  }

  await ensureChromium();
  // Measured on this 2-core machine (unit and embedded alone): 451 s on two workers, 423 s on three.
  const suites = [await jest('unit and behaviour (embedded end-to-end)', ['unit', 'embedded'], { workers: 3 })];
  // The static checks run niced beside the suites on NATS and PostgreSQL: two single-threaded
  // chains in the CPU those suites leave idle (about half a core, waiting on servers and processes),
  // instead of slowing the CPU-bound behaviour suite or holding both cores before it.
  const checks = Promise.all([
    chain([
      ['typecheck', [bin.tsc, '-p', 'tsconfig.json', '--noEmit']],
      // The console is browser code (DOM types, Preact JSX): its own project.
      ['typecheck (console)', [bin.tsc, '-p', 'apps/console/tsconfig.json', '--noEmit']],
      // The client written from the reference document, against the types generated from it.
      ['typecheck (reference client)', [path.join(__dirname, 'reference-client-check.js')]],
    ]),
    chain([
      // The module-boundary lint rule reads Nx's project graph; compute it first (no daemon in CI).
      ['project graph', [bin.nx, 'show', 'projects']],
      ['lint', [bin.eslint, '--max-warnings', '0', 'apps', 'libs', 'tools', 'test']],
      // One formatting for every file (.prettierrc.json); `npm run format` applies it.
      ['format check', [bin.prettier, '--check', '{apps,libs,test,tools}/**/*.{ts,js}', '*.js']],
    ]),
  ]);
  if (suites[0] && (await distributedServers())) {
    // Two suites side by side, one file at a time each: the seams, and what lies under the apps
    // (several processes per file, killed and cut off: two such files at once on two cores starve
    // each other's recoveries past any sane wait).
    suites.push(
      ...(await Promise.all([
        jest('distributed (NATS + PostgreSQL)', ['distributed'], { workers: 1 }),
        jest('infrastructure (transport, database, apps as processes)', ['infrastructure'], { workers: 1 }),
      ])),
    );
  }
  finish([...suites, ...(await checks)].every(Boolean));
}

void main();
