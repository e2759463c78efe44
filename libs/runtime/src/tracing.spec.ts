import { createServer, IncomingMessage } from 'node:http';
import { currentTraceparent, inSpan, tracingEnabled } from '@paykit/transport';
import { startTracing } from './tracing';

/** Tracing is off without an endpoint (no span, no context written), and exports over OTLP/HTTP with one. */
describe(startTracing.name, () => {
  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT: no trace context anywhere', async () => {
    expect(startTracing('spec', { tracing: { sampleRatio: 1 } })).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
    await inSpan('nothing', {}, async () => expect(currentTraceparent()).toBeNull());
  });

  it('with an endpoint, sends the spans to <endpoint>/v1/traces, the context current inside them', async () => {
    const received: Array<{ url?: string; body: string }> = [];
    const collector = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ url: request.url, body: Buffer.concat(chunks).toString('latin1') });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
    const tracing = startTracing('tracing-spec', { tracing: { otlpEndpoint: endpoint, sampleRatio: 1 } })!;
    try {
      let traceparent: string | null = null;
      await inSpan('spec work', {}, async () => {
        traceparent = currentTraceparent();
      });
      expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      await tracing.shutdown();
      expect(received.map((request) => request.url)).toEqual(['/v1/traces']);
      expect(received[0].body).toContain('spec work');
      expect(received[0].body).toContain('tracing-spec');
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }
  });
});
