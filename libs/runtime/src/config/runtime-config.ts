import { Environment, ENVIRONMENTS } from '@paykit/contracts';
import { EVENT_STREAM_DEFAULTS, EventStreamSettings } from '@paykit/transport';

export const SERVICE_NAMES = ['gateway', 'customers', 'external-accounts', 'payments', 'wallet-auth', 'cards', 'webhooks'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export type RunMode = 'embedded' | 'distributed';

/** Settings every process needs, read once at boot from the environment. */
export interface RuntimeConfig {
  mode: RunMode;
  /** Deployment environment: in production `/sandbox/*` answers 404. */
  deployment: Environment;
  /** One NATS URL, or several separated by commas (the members of a cluster the client may start from). */
  natsUrl: string;
  /** Distributed mode: how the JetStream stream and its durable consumers are kept (`EventStreamSettings`). */
  eventStream?: EventStreamSettings;
  /** Optional prefix of every NATS subject and stream, so stacks can share one server. */
  natsNamespace?: string;
  logLevel: string;
  /** Multiplies every sandbox delay (0.001 turns 30 s into 30 ms). */
  sandboxTimeScale: number;
  rpcTimeoutMs: number;
  /** Embedded mode: where PGlite keeps its files, or `memory`. */
  embeddedDataDir: string;
  /**
   * Distributed mode: the port of the process's probe listener (`/livez`, `/readyz`), for an
   * orchestrator such as Kubernetes; no listener when unset.
   */
  healthPort?: number;
  /**
   * Poison isolation (libs/persistence dead letters): a message or job failing with a non-transient
   * error is retried this many times, the waits doubling from `backoffMs`, then parked. Absent in
   * hand-made configs (tests): the defaults apply.
   */
  deadLetters?: { maxAttempts: number; backoffMs: number };
  /**
   * OpenTelemetry (libs/runtime tracing.ts): spans exported over OTLP/HTTP to `otlpEndpoint`
   * (OTEL_EXPORTER_OTLP_ENDPOINT; unset: tracing off, at no cost), new traces kept at `sampleRatio`.
   */
  tracing?: { otlpEndpoint?: string; sampleRatio: number };
  /** Distributed mode: the PostgreSQL URL of each service's own database. */
  databaseUrls: Partial<Record<ServiceName, string>>;
  /**
   * The environment this configuration was read from (process.env, or the map a test or the
   * embedded stack passed), so each service can read and validate its own settings under its
   * `config/` folder from the same source.
   */
  env: Readonly<Env>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** `customers` -> `CUSTOMERS_DATABASE_URL`. */
export function databaseUrlVariable(service: ServiceName): string {
  return `${service.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;
}

/** While `variablesRead` runs: every name an EnvReader is asked for. */
let namesAsked: Set<string> | undefined;

/**
 * The names of every variable `read` asks an EnvReader for: the code's own list of what a
 * deployment may set (test/deploy checks the Kubernetes manifests provide each one). A config
 * loader that refuses the values it was given still counts what it read.
 */
export function variablesRead(read: () => unknown): string[] {
  const outer = namesAsked;
  const names = new Set<string>();
  namesAsked = names;
  try {
    read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  } finally {
    namesAsked = outer;
  }
  if (outer) for (const name of names) outer.add(name);
  return [...names];
}

/** Collects problems instead of stopping at the first, so one start reports them all. */
export class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  private get(name: string): string | undefined {
    namesAsked?.add(name);
    return this.env[name];
  }

  string(name: string, fallback?: string): string {
    const value = this.get(name);
    if (value === undefined || value === '') {
      if (fallback === undefined) {
        this.problems.push(`${name} is required`);
        return '';
      }
      return fallback;
    }
    return value;
  }

  optional(name: string): string | undefined {
    const value = this.get(name);
    return value === undefined || value === '' ? undefined : value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.get(name) ?? fallback;
    if (!allowed.includes(value as T)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
      return fallback;
    }
    return value as T;
  }

  number(name: string, fallback: number, { min, max, integer }: { min?: number; max?: number; integer?: boolean } = {}): number {
    const raw = this.get(name);
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    const bad = !Number.isFinite(value) || (integer && !Number.isInteger(value)) || (min !== undefined && value < min) || (max !== undefined && value > max);
    if (bad) {
      const range = [min !== undefined ? `>= ${min}` : '', max !== undefined ? `<= ${max}` : ''].filter(Boolean).join(' and ');
      this.problems.push(`${name} must be a${integer ? 'n integer' : ' number'}${range ? ' ' + range : ''} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  url(name: string, protocols: string[], fallback?: string): string {
    const value = this.string(name, fallback);
    if (!value) return value;
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol)) this.problems.push(`${name} must be a ${protocols.join(' or ')} URL (got "${parsed.protocol}")`);
    } catch {
      this.problems.push(`${name} must be a URL (got "${value}")`);
    }
    return value;
  }

  /** One URL or several separated by commas, each of one of the protocols; answered as given. */
  urls(name: string, protocols: string[], fallback?: string): string {
    const value = this.string(name, fallback);
    if (!value) return value;
    for (const one of value.split(',').map((part) => part.trim())) {
      try {
        const parsed = new URL(one);
        if (!protocols.includes(parsed.protocol)) this.problems.push(`${name} must be a ${protocols.join(' or ')} URL (got "${parsed.protocol}")`);
      } catch {
        this.problems.push(`${name} must be a URL, or URLs separated by commas (got "${one}")`);
      }
    }
    return value;
  }

  done(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}

/**
 * Reads the shared runtime settings. In distributed mode `services` names the apps this
 * process runs, whose database URLs are then required.
 */
export function loadRuntimeConfig(env: Env, mode: RunMode, services: readonly ServiceName[]): RuntimeConfig {
  const read = new EnvReader(env);
  const databaseUrls: Partial<Record<ServiceName, string>> = {};
  const config: RuntimeConfig = {
    mode,
    deployment: read.oneOf('DEPLOYMENT_ENV', ENVIRONMENTS, 'sandbox'),
    natsUrl: mode === 'distributed' ? read.urls('NATS_URL', ['nats:'], 'nats://127.0.0.1:4222') : '',
    natsNamespace: read.optional('NATS_NAMESPACE'),
    logLevel: read.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    sandboxTimeScale: read.number('SANDBOX_TIME_SCALE', 1, { min: 0, max: 1000 }),
    rpcTimeoutMs: read.number('RPC_TIMEOUT_MS', 5000, { min: 50, max: 120000, integer: true }),
    // Read only where it means something, so a deployment is not asked for it.
    embeddedDataDir: mode === 'embedded' ? read.string('DATA_DIR', '.data') : '',
    deadLetters: {
      maxAttempts: read.number('DEAD_LETTER_MAX_ATTEMPTS', 5, { min: 1, max: 100, integer: true }),
      backoffMs: read.number('DEAD_LETTER_BACKOFF_MS', 100, { min: 1, max: 60_000, integer: true }),
    },
    tracing: {
      otlpEndpoint: read.optional('OTEL_EXPORTER_OTLP_ENDPOINT'),
      // The OpenTelemetry variable's meaning for the parent-based trace-id-ratio sampler.
      sampleRatio: read.number('OTEL_TRACES_SAMPLER_ARG', 1, { min: 0, max: 1 }),
    },
    databaseUrls,
    env: { ...env },
  };
  if (mode === 'distributed') {
    const replicas = read.number('NATS_STREAM_REPLICAS', EVENT_STREAM_DEFAULTS.replicas, { min: 1, max: 5, integer: true });
    config.eventStream = {
      replicas,
      consumerReplicas: read.number('NATS_CONSUMER_REPLICAS', replicas, { min: 1, max: 5, integer: true }),
      storage: read.oneOf('NATS_STREAM_STORAGE', ['file', 'memory'] as const, EVENT_STREAM_DEFAULTS.storage),
      retention: read.oneOf('NATS_STREAM_RETENTION', ['limits', 'interest'] as const, EVENT_STREAM_DEFAULTS.retention),
      maxAgeSeconds: read.number('NATS_STREAM_MAX_AGE_SECONDS', EVENT_STREAM_DEFAULTS.maxAgeSeconds, { min: 60, integer: true }),
    };
    if (read.optional('HEALTH_PORT') !== undefined) config.healthPort = read.number('HEALTH_PORT', 0, { min: 1, max: 65535, integer: true });
    for (const service of services) {
      databaseUrls[service] = read.url(databaseUrlVariable(service), ['postgres:', 'postgresql:']);
    }
  }
  read.done();
  return config;
}
