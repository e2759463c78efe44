/**
 * Runs one load in its own process (so the load generator does not share an event loop with
 * what it measures) and prints the result as one JSON line: autocannon's closed loop, or an
 * open loop at a fixed rate when `overallRate` is set. Input: the LoadOptions as JSON in argv[2].
 */
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { LoadOptions, LoadResult } from './bench-types';

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2]) as LoadOptions;
  const summary = options.overallRate ? await openLoop(options, options.overallRate) : await closedLoop(options);
  process.stdout.write(JSON.stringify(summary) + '\n');
}

/** autocannon: every connection sends its next request as soon as the previous one is answered. */
async function closedLoop(options: LoadOptions): Promise<LoadResult> {
  const method = options.method ?? 'GET';
  const headers = { 'content-type': 'application/json', ...options.headers };
  let next = 0;
  const bodies = options.bodies;
  const urls = options.urls;
  const requests =
    bodies || urls
      ? [
          {
            method,
            headers,
            setupRequest: (request: { path: string; body?: string }) => {
              const index = next++;
              if (bodies) request.body = bodies[index % bodies.length];
              if (urls) request.path = new URL(urls[index % urls.length]).pathname;
              return request;
            },
          },
        ]
      : undefined;
  const result = await autocannon({
    url: urls ? urls[0] : options.url,
    method,
    headers,
    body: options.body,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? 10,
    amount: options.amount,
    requests,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

/** As autocannon's default: a request unanswered this long is an error. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Requests sent on a fixed schedule, one every 1/rate seconds whatever the answers do (an
 * open loop, as independent clients arrive), over keep-alive connections opened as needed.
 * Each latency runs from the request's scheduled time, so time spent waiting for a free
 * connection counts. autocannon's own rate option is not this: each connection sends back to
 * back until it has used its share of the second, then pauses, so a rate below capacity still
 * arrives in bursts at full speed.
 */
async function openLoop(options: LoadOptions, rate: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections ?? 256 });
  const method = options.method ?? 'GET';
  const urls = (options.urls ?? [options.url]).map((url) => new URL(url));
  const bodies = options.bodies ?? (options.body === undefined ? undefined : [options.body]);
  const durationMs = (options.durationSeconds ?? 10) * 1000;
  const intervalMs = 1000 / rate;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const inFlight = new Set<Promise<void>>();

  const send = (index: number, scheduledAt: number): Promise<void> =>
    new Promise<void>((done) => {
      let settled = false;
      const failed = (): void => {
        if (settled) return;
        settled = true;
        errors++;
        done();
      };
      const url = urls[index % urls.length];
      const body = bodies?.[index % bodies.length];
      const request = httpRequest(
        { agent, method, host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { 'content-type': 'application/json', ...options.headers } },
        (response) => {
          response.resume();
          response.once('end', () => {
            if (settled) return;
            settled = true;
            latencies.push(performance.now() - scheduledAt);
            if ((response.statusCode ?? 0) >= 300) non2xx++;
            done();
          });
          response.once('aborted', failed);
          response.once('error', failed);
        },
      );
      // Counted as an error rather than holding the run open.
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy());
      request.once('error', failed);
      request.end(body);
    });

  const started = performance.now();
  let sent = 0;
  while (performance.now() - started < durationMs) {
    // Every request whose time has come goes now, each timed from its own scheduled moment.
    const due = Math.floor((performance.now() - started) / intervalMs) + 1;
    for (; sent < due; sent++) {
      const request = send(sent, started + sent * intervalMs);
      inFlight.add(request);
      void request.then(() => inFlight.delete(request));
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + sent * intervalMs - performance.now())));
  }
  await Promise.all(inFlight);
  const elapsedSeconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (quantile: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))] ?? 0);
  return {
    requestsPerSecond: latencies.length / elapsedSeconds,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    non2xx,
    errors,
    total: latencies.length,
  };
}

void main();
