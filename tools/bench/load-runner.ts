/**
 * Runs one autocannon load in its own process (so the load generator does not share an
 * event loop with what it measures) and prints the result as one JSON line.
 * Input: the LoadOptions as JSON in argv[2].
 */
import autocannon from 'autocannon';
import { LoadOptions, LoadResult } from './bench-types';

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2]) as LoadOptions;
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
  const summary: LoadResult = {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
  process.stdout.write(JSON.stringify(summary) + '\n');
}

void main();
