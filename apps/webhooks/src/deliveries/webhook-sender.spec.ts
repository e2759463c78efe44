import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { sendWebhook } from './webhook-sender';

describe(sendWebhook.name, () => {
  let server: Server;
  let url: string;
  let handler: (request: IncomingMessage, response: ServerResponse) => void;
  const seen: Array<{ headers: IncomingMessage['headers']; body: string; port?: number }> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        seen.push({ headers: request.headers, body, port: request.socket.remotePort });
        handler(request, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  // Far above any passing request (they end at once), so a stalled machine cannot turn one into a timeout.
  const send = (timeoutMs = 10_000) => sendWebhook({ url, body: '{"id":"Webhook:1"}', signature: '{"v":"1","s":"c2ln"}', timeoutMs });

  it('POSTs the raw body as JSON with the signature header', async () => {
    handler = (_, response) => response.writeHead(200).end();
    await send();
    expect(seen[seen.length - 1]).toMatchObject({
      body: '{"id":"Webhook:1"}',
      headers: { 'content-type': 'application/json', 'x-service-signature': '{"v":"1","s":"c2ln"}' },
    });
  });

  it.each([
    [200, true],
    [201, true],
    [204, true],
    [299, true],
    [301, false],
    [400, false],
    [500, false],
    [503, false],
  ])('answers status %i: succeeded %s', async (status, succeeded) => {
    handler = (_, response) => response.writeHead(status, status === 301 ? { location: url } : {}).end('x');
    const outcome = await send();
    expect(outcome).toMatchObject({ statusCode: status, succeeded, latencyMs: expect.any(Number) });
    expect(outcome.error).toBe(succeeded ? undefined : `Receiver answered HTTP ${status}`);
  });

  it('reuses the connection for the next webhook to the same receiver', async () => {
    handler = (_, response) => response.writeHead(200).end();
    await send();
    await send();
    const [first, second] = seen.slice(-2);
    expect(second.port).toBe(first.port);
  });

  it('stops reading an answer past 64 KiB and keeps its status', async () => {
    handler = (_, response) => {
      response.writeHead(200);
      response.end(Buffer.alloc(256 * 1024, 'x'));
    };
    expect(await send()).toMatchObject({ statusCode: 200, succeeded: true });
  });

  it('fails a receiver that does not answer in time', async () => {
    handler = () => undefined;
    const outcome = await send(200);
    expect(outcome).toMatchObject({ succeeded: false, error: 'Timed out after 200 ms' });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(190);
    expect(outcome.statusCode).toBeUndefined();
  });

  it('fails a receiver that closes the connection', async () => {
    handler = (request) => request.socket.destroy();
    expect(await send()).toMatchObject({ succeeded: false, error: 'Connection failed: other side closed (ECONNRESET)' });
  });

  it('fails a refused connection, naming the reason', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await sendWebhook({ url: `http://127.0.0.1:${port}/hook`, body: '{}', signature: '{}', timeoutMs: 10_000 });
    expect(outcome).toMatchObject({ succeeded: false, error: `Connection failed: connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('fails a TLS handshake that cannot complete (https to a plain HTTP server), naming the reason', async () => {
    handler = (_, response) => response.writeHead(200).end();
    const outcome = await sendWebhook({ url: url.replace('http:', 'https:'), body: '{}', signature: '{}', timeoutMs: 10_000 });
    expect(outcome).toMatchObject({ succeeded: false, error: expect.stringMatching(/^Connection failed: .*(SSL|TLS|EPROTO)/) });
    expect(outcome.statusCode).toBeUndefined();
  });

  it('stops when asked to (service shutdown)', async () => {
    handler = () => undefined;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await sendWebhook({ url, body: '{}', signature: '{}', timeoutMs: 5000, signal: controller.signal });
    expect(outcome).toMatchObject({ succeeded: false, error: 'Interrupted: the webhooks service stopped' });
  });
});
