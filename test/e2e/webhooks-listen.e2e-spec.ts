import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { eventually, startTestStack, TestStack } from '../support/test-stack';

const ROOT = join(__dirname, '..', '..');
const LISTENER = join(ROOT, 'dist', 'tools', 'webhooks-listen.js');

/** What `npm run webhooks:listen` runs once it has built: the compiled script, as its own process. */
describe('npm run webhooks:listen (the built script)', () => {
  let t: TestStack;

  beforeAll(async () => {
    const build = spawnSync(process.execPath, [join(ROOT, 'tools', 'build.js')], { cwd: ROOT, encoding: 'utf8' });
    expect(build.status).toBe(0);
    t = await startTestStack();
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** Only what the script is given: no credentials or URL leak in from the test's own environment. */
  function listenerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
    return { PATH: process.env.PATH, ...extra };
  }

  interface RunningScript {
    child: ChildProcess;
    lines: string[];
    exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  }

  function run(args: string[], env: Record<string, string>): RunningScript {
    const child = spawn(process.execPath, [LISTENER, ...args], { cwd: ROOT, env: listenerEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let rest = '';
    const collect = (chunk: Buffer): void => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    // 'close' comes after the output is all read.
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
    return { child, lines, exited };
  }

  /** The script's first line with all of `parts`. A script that never prints it fails the test with what it did print (and its exit, if it exited). */
  async function lineWith(script: RunningScript, ...parts: string[]): Promise<string> {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    void script.exited.then((ended) => (exit = ended));
    try {
      return await eventually(async () => script.lines.find((line) => parts.every((part) => line.includes(part))), 30_000);
    } catch (error) {
      throw new Error(
        `no line with ${JSON.stringify(parts)} (${(error as Error).message}); exit: ${JSON.stringify(exit ?? 'still running')}; it printed:\n${script.lines.join('\n')}`,
      );
    }
  }

  it('sets itself as the endpoint, prints each event verified, and on SIGINT puts the previous endpoint back and exits 0', async () => {
    const platform = await t.newPlatform();
    const previous = 'https://platform.example.com/webhooks/paykit';
    expect((await platform.api.patch('/config', { webhookEndpoint: previous })).status).toBe(200);
    // The API's URL from PAYKIT_URL, as documented; credentials and a free port from the flags.
    const script = run(['--token-id', platform.credentials.tokenId, '--secret', platform.credentials.secret, '--port', '0'], { PAYKIT_URL: platform.api.baseUrl });
    try {
      const listening = await lineWith(script, 'Listening on http://127.0.0.1:');
      const url = /Listening on (\S+):/.exec(listening)![1];
      expect(listening).toContain(`(was ${previous}; restored on exit)`);
      expect((await platform.api.get('/config')).body.webhookEndpoint).toBe(url);

      const customer = await platform.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
      expect(customer.status).toBe(201);
      const line = await lineWith(script, customer.body.id);
      expect(line).toContain('CUSTOMER.KYC_PENDING');
      expect(line).toContain('✔ signature verified');
      expect(line).toMatch(/Webhook:[0-9a-f-]{36}$/);

      script.child.kill('SIGINT');
      expect(await script.exited).toEqual({ code: 0, signal: null });
      expect((await platform.api.get('/config')).body.webhookEndpoint).toBe(previous);
    } finally {
      script.child.kill('SIGKILL');
    }
  });

  it('removes its endpoint on SIGINT when the platform had none, with the credentials from SANDBOX_TOKEN_ID/SANDBOX_TOKEN_SECRET', async () => {
    const platform = await t.newPlatform();
    const script = run(['--url', platform.api.baseUrl, '--port', '0'], { SANDBOX_TOKEN_ID: platform.credentials.tokenId, SANDBOX_TOKEN_SECRET: platform.credentials.secret });
    try {
      const listening = await lineWith(script, 'Listening on http://127.0.0.1:');
      expect(listening).not.toContain('restored on exit');
      expect((await platform.api.get('/config')).body.webhookEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
      script.child.kill('SIGINT');
      expect(await script.exited).toEqual({ code: 0, signal: null });
      expect((await platform.api.get('/config')).body).not.toHaveProperty('webhookEndpoint');
    } finally {
      script.child.kill('SIGKILL');
    }
  });

  it.each([
    ['no credentials', [], {}, /needs the sandbox API credentials/],
    ['a port that is not a number', ['--token-id', 'tok_x', '--secret', 'x', '--port', 'http'], {}, /--port must be a port number \(got "http"\)/],
    [
      'an API it cannot reach',
      ['--token-id', 'tok_x', '--secret', 'x', '--port', '0', '--url', 'http://127.0.0.1:1/2025-10-13'],
      {},
      /cannot reach http:\/\/127\.0\.0\.1:1\/2025-10-13/,
    ],
  ])('exits 1 with a message for %s', async (_, args, env, message) => {
    const script = run(args, env);
    expect(await script.exited).toEqual({ code: 1, signal: null });
    expect(script.lines.join('\n')).toMatch(message);
  });
});
