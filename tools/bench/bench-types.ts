/** One printed figure of `npm run bench`: a name, a value with its unit, and its target if any. */
export interface BenchFigure {
  scenario: string;
  metric: string;
  value: number;
  unit: string;
  /** e.g. ">= 1000" or "< 50"; `met` says whether the value meets it. */
  target?: string;
  met?: boolean;
}

/** What a benchmark scenario gets: a running stack (distributed unless it says otherwise) and helpers. */
export interface BenchContext {
  mode: 'embedded' | 'distributed';
  /** `http://127.0.0.1:<port>/2025-10-13` */
  baseUrl: string;
  /** `Basic ...` header value for the sandbox platform. */
  authorization: string;
  /** The distributed stack's environment (NATS namespace, database URLs) for scenarios that talk to it directly. */
  env?: Record<string, string>;
  /** Load from a separate process (autocannon), as the benchmark harness runs it. */
  load(options: LoadOptions): Promise<LoadResult>;
  /** Distributed only: stops one app's process (SIGTERM), and starts it again with the same environment. */
  stopService?: (service: string) => Promise<void>;
  startService?: (service: string) => Promise<void>;
  /** Distributed only: starts one more process of `service` (a replica, same environment) and resolves once its probe says ready; answers its name. */
  addReplica?: (service: string) => Promise<string>;
  /** Distributed only: stops a replica started by addReplica (SIGTERM). */
  removeReplica?: (name: string) => Promise<void>;
  /** Distributed only: starts sampling every process's resident memory; the returned function stops and answers each one's peak, in MB. */
  sampleMemory?: () => () => Map<string, number>;
}

export interface LoadOptions {
  title: string;
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** A fixed body, or several bodies used round-robin (each request gets the next). */
  body?: string;
  bodies?: string[];
  /** Several URLs used round-robin instead of `url`. */
  urls?: string[];
  connections?: number;
  durationSeconds?: number;
  amount?: number;
  /** Requests per second offered, evenly spaced, over at most `connections` connections (an open loop); unset: each connection sends as fast as answers come. */
  overallRate?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  total: number;
  /** Distributed runs: microseconds of CPU per request, in total and by process (gateway, services, PostgreSQL, NATS). */
  cpu?: { totalUs: number; byProcess: string };
}
