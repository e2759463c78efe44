import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@paykit/runtime';
import { load, YAML11_SCHEMA } from 'js-yaml';

/**
 * The Dockerfile, read step by step (no container engine runs here): one image for every app,
 * built as CI builds the tree, run as a non-root user, the app chosen by the container's argument.
 */
const ROOT = join(__dirname, '..', '..');

interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions per stage, continuation lines joined, comments dropped. */
function stages(): Array<{ from: string; name?: string; steps: Instruction[] }> {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const result: Array<{ from: string; name?: string; steps: Instruction[] }> = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const [, keyword, args] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args) ?? [];
      result.push({ from, name, steps: [] });
    } else {
      result.at(-1)!.steps.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return result;
}

const all = (steps: Instruction[], keyword: string) => steps.filter((step) => step.keyword === keyword).map((step) => step.args);
const json = (args: string) => JSON.parse(args) as string[];

describe('Dockerfile', () => {
  const [build, run] = stages();

  it('has a build stage and a runtime stage on the same Node base', () => {
    expect(stages()).toHaveLength(2);
    expect(build.name).toBe('build');
    expect(build.from).toMatch(/^node:20[.-]/);
    expect(run.from).toBe(build.from);
  });

  it('builds as CI does: the lockfile first (cached layer), npm ci, the build, then development packages pruned', () => {
    const copies = all(build.steps, 'COPY');
    expect(copies[0]).toBe('package.json package-lock.json ./');
    const runs = all(build.steps, 'RUN').join(' && ');
    const order = ['npm ci', 'npm run build', 'npm prune --omit=dev'].map((command) => runs.indexOf(command));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Everything the build reads (tools/build.js: the sources, the swc and TypeScript settings) is copied in.
    const copied = copies.flatMap((args) => args.split(/\s+/).slice(0, -1));
    for (const input of ['apps', 'libs', 'tools', 'tsconfig.base.json', 'tsconfig.json', '.swcrc.json']) {
      expect(copied).toContain(input);
      expect(existsSync(join(ROOT, input))).toBe(true);
    }
    expect(readFileSync(join(ROOT, 'tools', 'build.js'), 'utf8')).toMatch(/\.swcrc\.json[\s\S]*tsconfig\.base\.json/);
  });

  it('runs the built tree only, in production mode, as a non-root user given by number', () => {
    expect(all(run.steps, 'COPY')).toEqual(['--from=build /app/node_modules ./node_modules', '--from=build /app/dist ./dist', '--from=build /app/package.json ./package.json']);
    expect(all(run.steps, 'ENV')).toContain('NODE_ENV=production');
    const [user] = all(run.steps, 'USER');
    expect(user).toMatch(/^[1-9][0-9]*(:[0-9]+)?$/);
    expect(all(run.steps, 'RUN')).toEqual([]);
  });

  it('picks the app by argument through the launcher, which accepts exactly the apps there are', () => {
    expect(json(all(run.steps, 'ENTRYPOINT')[0])).toEqual(['node', 'dist/tools/serve.js']);
    const [defaultApp] = json(all(run.steps, 'CMD')[0]);
    expect(SERVICE_NAMES).toContain(defaultApp);
    // tools/serve.ts is built to dist/tools/serve.js; it refuses any name outside SERVICE_NAMES and
    // starts dist/apps/<app>/src/main.js, which every app has.
    const launcher = readFileSync(join(ROOT, 'tools', 'serve.ts'), 'utf8');
    expect(launcher).toMatch(/SERVICE_NAMES\.includes\(/);
    expect(launcher).toMatch(/join\(__dirname, '\.\.', 'apps', app!?, 'src', 'main\.js'\)/);
    for (const app of SERVICE_NAMES) expect(existsSync(join(ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
  });

  it('exposes the ports the deployment uses, and carries no secret', () => {
    const exposed = all(run.steps, 'EXPOSE').join(' ').split(/\s+/).map(Number);
    const base = readFileSync(join(ROOT, 'deploy', 'k8s', 'base', 'kustomization.yaml'), 'utf8');
    const setting = (name: string) => Number(new RegExp(`- ${name}=(\\d+)`).exec(base)?.[1]);
    expect(exposed).toEqual(expect.arrayContaining([setting('PORT'), setting('HEALTH_PORT')]));
    for (const stage of stages()) {
      for (const step of stage.steps.filter((s) => s.keyword === 'ENV' || s.keyword === 'ARG')) {
        expect(step.args).not.toMatch(/(KEY|SECRET|PASSWORD|TOKEN|DATABASE_URL)/);
      }
    }
  });

  it('sends no local build output or dependencies to the engine (.dockerignore)', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.data', 'tmp']));
  });

  it('is the image docker-compose runs, one service per app, each naming its app', () => {
    // YAML 1.1: the file shares settings with merge keys (`<<: *service`).
    const compose = load(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { schema: YAML11_SCHEMA }) as { services: Record<string, { image?: string; command?: string[] }> };
    for (const app of SERVICE_NAMES) {
      expect(compose.services[app]).toMatchObject({ image: 'paykit:local', command: [app] });
    }
  });
});
