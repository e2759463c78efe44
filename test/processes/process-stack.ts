import { ChildProcess, spawn } from 'node:child_process';
import { createVerify } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, createConnection, createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../support/api-client';
import { eventually, UNREACHED_RATE_LIMITS } from '../support/test-stack';

/**
 * Helpers for specs that run apps as real processes (the deployed shape) and break what they
 * depend on: kill an app, a NATS server, or database connections.
 */

const ROOT = join(__dirname, '..', '..');
/** The binary CI starts its NATS server with (.ci/run). */
const NATS_SERVER_BINARY = '/usr/sbin/nats-server';

/** Ports already handed out in this test file. */
const handedOut = new Set<number>();

/**
 * Listening ports are taken below the kernel's ephemeral range (32768-60999 on Linux): a port in
 * that range, free when checked, can be given to any process's outgoing connection (to NATS, to
 * PostgreSQL) before the app binds it, and the app then dies with EADDRINUSE. Below it, only
 * another listener can take it. Each test process starts at a random place, so parallel suites
 * rarely probe the same ports.
 */
const LOW_PORTS = { first: 20_000, count: 12_000 };
let nextLowPort = LOW_PORTS.first + Math.floor(Math.random() * LOW_PORTS.count);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    // The apps listen on every interface: checked the same way.
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on now and that no earlier call returned (two processes told the same port: one of them never starts). */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < LOW_PORTS.count; tried += 1) {
    const port = nextLowPort;
    nextLowPort = LOW_PORTS.first + ((nextLowPort - LOW_PORTS.first + 1) % LOW_PORTS.count);
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`No free port between ${LOW_PORTS.first} and ${LOW_PORTS.first + LOW_PORTS.count}`);
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends a signal to a child and waits for it to exit. */
async function ended(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/**
 * Apps of one stack, each its own process from dist/, logging to a file each under `logDir`.
 * Several replicas of one app run side by side under names of their own (`cards-2`): each is
 * started, stopped or killed by that name.
 */
/**
 * The environment of a stack whose processes a test kills: sandbox delays shrunk, quiet logs, and a
 * killed webhooks process's attempts taken again 2 s after they started (1 s timeout + 1 s margin).
 */
export function killableStackEnv(resources: { env: Record<string, string> }, natsUrl: string): Record<string, string> {
  return {
    ...resources.env,
    NATS_URL: natsUrl,
    LOG_LEVEL: 'warn',
    SANDBOX_TIME_SCALE: '0.001',
    WEBHOOK_DELIVERY_TIMEOUT_MS: '1000',
    WEBHOOK_LEASE_MARGIN_MS: '1000',
    ...UNREACHED_RATE_LIMITS,
  };
}

export class AppProcesses {
  private readonly running = new Map<string, ChildProcess>();
  readonly logDir = mkdtempSync(join(tmpdir(), 'paykit-processes-'));

  constructor(private readonly env: Record<string, string>) {}

  /**
   * Starts `app` as the process `name` (the app's name unless a replica's is given), the way the
   * image does (Dockerfile): the launcher `dist/tools/serve.js <app>`.
   */
  start(app: string, extra: Record<string, string> = {}, name = app): ChildProcess {
    const log = openSync(this.logOf(name), 'a');
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'tools', 'serve.js'), app], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, ...extra },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.running.set(name, child);
    return child;
  }

  /** Where the process `name` writes its output. */
  logOf(name: string): string {
    return join(this.logDir, `${name}.log`);
  }

  /**
   * Waits until each named process's readiness probe answers 200; one that exits or does not
   * answer in time fails the wait with the end of its own output, so the cause is in the report.
   */
  async untilReady(healthPorts: Record<string, number>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const waiting = new Set(Object.keys(healthPorts));
    const exited = (name: string) => typeof this.running.get(name)?.exitCode === 'number';
    while (waiting.size > 0 && Date.now() < deadline && ![...waiting].some(exited)) {
      for (const name of [...waiting]) if ((await probe(healthPorts[name]))?.status === 200) waiting.delete(name);
      if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (waiting.size === 0) return;
    const tails = [...waiting].map((name) => {
      const exit = this.running.get(name)?.exitCode;
      const output = existsSync(this.logOf(name)) ? readFileSync(this.logOf(name), 'utf8').split('\n').slice(-40).join('\n') : '(no output)';
      return `--- ${name} (${exit === null || exit === undefined ? 'running' : `exited ${exit}`}) ---\n${output}`;
    });
    throw new Error(`Not ready (exited, or not within ${timeoutMs} ms): ${[...waiting].join(', ')}\n${tails.join('\n')}`);
  }

  /** The running process `name`, if any. */
  process(name: string): ChildProcess | undefined {
    return this.running.get(name);
  }

  /** SIGTERM stops it gracefully; SIGKILL is a crash. */
  stop(name: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    return ended(this.running.get(name), signal);
  }

  async stopAll({ keepLogs = false } = {}): Promise<void> {
    for (const name of [...this.running.keys()].reverse()) await this.stop(name);
    if (!keepLogs) rmSync(this.logDir, { recursive: true, force: true });
  }
}

/** A process's readiness probe (`HEALTH_PORT`): its status and body, or undefined while nothing listens. */
export async function probe(
  port: number,
  path: '/readyz' | '/livez' = '/readyz',
): Promise<{ status: number; body: { status: string; checks?: Record<string, string> } } | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5_000) });
    return { status: response.status, body: (await response.json()) as { status: string; checks?: Record<string, string> } };
  } catch {
    return undefined;
  }
}

/** A NATS server with JetStream for one spec, on a port and store of its own, so it can be restarted. */
export class PrivateNats {
  private server?: ChildProcess;
  private readonly storeDir = mkdtempSync(join(tmpdir(), 'paykit-nats-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateNats> {
    const nats = new PrivateNats(await freePort());
    await nats.restart();
    return nats;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts it (again) on the same port and store directory. */
  async restart(): Promise<void> {
    this.server = spawn(NATS_SERVER_BINARY, ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir], { stdio: 'ignore' });
    await waitFor(`nats-server on port ${this.port}`, () => answers(this.port), 10_000);
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    return ended(this.server, signal);
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

export interface ReceivedWebhook {
  id: string;
  type: string;
  resourceId: string;
  verified: boolean;
}

/**
 * A platform's webhook receiver on loopback that verifies each signature (INTEROP.md) and answers
 * 200 after `delayMs`, so that deliveries are in flight at any moment while events flow.
 */
export class SlowReceiver {
  readonly received: ReceivedWebhook[] = [];
  publicKeyPem = '';
  /** Requests being answered now. */
  inFlight = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor(private readonly delayMs: number) {
    this.server = createHttpServer((request, response) => this.handle(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(delayMs: number): Promise<SlowReceiver> {
    const receiver = new SlowReceiver(delayMs);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /**
   * A receiver answering after `delayMs`, made the platform's webhook endpoint (the gateway's
   * `PATCH /config`, retried until the processes behind it answer), with the platform's signing key.
   */
  static async asEndpointOf(api: ApiClient, delayMs: number): Promise<SlowReceiver> {
    const receiver = await SlowReceiver.start(delayMs);
    const configured = await eventually(
      async () => {
        const response = await api.patch('/config', { webhookEndpoint: receiver.url }).catch(() => undefined);
        return response?.status === 200 ? response : undefined;
      },
      60_000,
      200,
    );
    receiver.publicKeyPem = configured.body.webhookPublicKey;
    return receiver;
  }

  /** The payload ids received at least once. */
  ids(): Set<string> {
    return new Set(this.received.map((r) => r.id));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    this.inFlight += 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const payload = JSON.parse(rawBody.toString('utf8')) as { id: string; type: string; data: { id: string } };
      const { s } = JSON.parse(String(request.headers['x-service-signature'])) as { s: string };
      const verified = createVerify('SHA256').update(rawBody).verify(this.publicKeyPem, Buffer.from(s, 'base64'));
      this.received.push({ id: payload.id, type: payload.type, resourceId: payload.data.id, verified });
      setTimeout(() => {
        this.inFlight -= 1;
        response.writeHead(200).end();
      }, this.delayMs);
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * A TCP proxy on loopback in front of a server (PostgreSQL), which a spec can cut: `cut()` closes
 * every connection through it and refuses new ones, as an unreachable server would; `restore()`
 * accepts again on the same port.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server?: ReturnType<typeof createServer>;

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(await freePort(), target);
    await proxy.restore();
    return proxy;
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}
