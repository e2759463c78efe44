/**
 * The process's metrics, by name and labels, in the Prometheus text format the probe listener
 * serves at `/metrics` (distributed mode, HEALTH_PORT): counters (requests, messages, webhook
 * deliveries, dead letters), latency histograms, and gauges read when scraped (consumer lag, due
 * jobs). What an operator alerts and autoscales on (KEDA's triggers read these names), not a
 * profiling tool. Every name is listed in METRICS with its help text.
 */

/** Every metric Paykit serves, with its type and help (docs/operating.md lists them). */
export const METRICS = {
  paykit_http_requests_total: { type: 'counter', help: 'API requests answered by the gateway, by operation (method and route) and status class' },
  paykit_http_request_duration_seconds: { type: 'histogram', help: 'Time to answer an API request, by operation' },
  paykit_messages_total: { type: 'counter', help: 'Service requests handled (NATS request/reply), by service, subject and outcome (ok or the error code)' },
  paykit_message_duration_seconds: { type: 'histogram', help: 'Time to handle a service request, by service and subject' },
  paykit_consumer_pending_messages: {
    type: 'gauge',
    help: "Events of the stream a durable consumer has not yet acknowledged (waiting plus in flight): the consumer's lag",
  },
  paykit_scheduled_jobs_due: { type: 'gauge', help: "Scheduled jobs due and not done in the service's database (the due-job backlog)" },
  paykit_webhook_deliveries_total: { type: 'counter', help: 'Webhook delivery attempts sent, by outcome (delivered: 2xx; rejected: another status; unreachable: no answer)' },
  paykit_webhook_deliveries_due: { type: 'gauge', help: 'Webhook deliveries due and not in flight (the delivery backlog)' },
  paykit_dead_letters_parked_total: { type: 'counter', help: 'Messages and jobs parked as dead letters, by service and source' },
} as const;

/** A name of METRICS (a test may count others). */
export type MetricName = keyof typeof METRICS;

/** Latency buckets, in seconds: a request path of a few milliseconds up to the RPC timeouts. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labels = Record<string, string>;
export type GaugeReading = Array<{ labels: Labels; value: number }>;

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

function labelKey(labels: Labels): string {
  return Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, value]) => `${label}="${value.replace(/["\\\n]/g, '_')}"`)
    .join(',');
}

/** How long a gauge's reading may take at a scrape before it is left out. */
const GAUGE_TIMEOUT_MS = 2000;

export class ProcessMetrics {
  private readonly counters = new Map<string, Map<string, number>>();
  private readonly histograms = new Map<string, Map<string, Histogram>>();
  private readonly gauges = new Map<string, Array<() => Promise<GaugeReading>>>();

  increment(name: string, labels: Labels = {}, by = 1): void {
    let series = this.counters.get(name);
    if (!series) this.counters.set(name, (series = new Map<string, number>()));
    const key = labelKey(labels);
    series.set(key, (series.get(key) ?? 0) + by);
  }

  /** One observation of a histogram (a duration in seconds). */
  observe(name: string, labels: Labels, value: number): void {
    let series = this.histograms.get(name);
    if (!series) this.histograms.set(name, (series = new Map<string, Histogram>()));
    const key = labelKey(labels);
    let histogram = series.get(key);
    if (!histogram) series.set(key, (histogram = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < BUCKETS.length; i += 1) if (value <= BUCKETS[i]) histogram.counts[i] += 1;
    histogram.sum += value;
    histogram.count += 1;
  }

  /** A gauge read at each scrape (several readers of one name add their series); answers the unregistering. */
  gauge(name: string, read: () => Promise<GaugeReading>): () => void {
    const readers = this.gauges.get(name) ?? [];
    readers.push(read);
    this.gauges.set(name, readers);
    return () => {
      const index = readers.indexOf(read);
      if (index >= 0) readers.splice(index, 1);
    };
  }

  /** A counter's total over the series whose labels include `labels`. */
  value(name: string, labels: Labels = {}): number {
    let total = 0;
    for (const [key, count] of this.counters.get(name) ?? []) {
      if (Object.entries(labels).every(([label, value]) => key.includes(`${label}="${value}"`))) total += count;
    }
    return total;
  }

  /** Counters and histograms as text (what needs no reading). */
  text(): string {
    const lines: string[] = [];
    for (const [name, series] of [...this.counters].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(...header(name));
      for (const [key, count] of series) lines.push(`${name}${key ? `{${key}}` : ''} ${count}`);
    }
    for (const [name, series] of [...this.histograms].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(...header(name));
      for (const [key, histogram] of series) {
        const sep = key ? ',' : '';
        BUCKETS.forEach((bound, i) => lines.push(`${name}_bucket{${key}${sep}le="${bound}"} ${histogram.counts[i]}`));
        lines.push(`${name}_bucket{${key}${sep}le="+Inf"} ${histogram.count}`);
        lines.push(`${name}_sum${key ? `{${key}}` : ''} ${histogram.sum}`);
        lines.push(`${name}_count${key ? `{${key}}` : ''} ${histogram.count}`);
      }
    }
    return lines.length > 0 ? `${lines.join('\n')}\n` : '';
  }

  /** Everything, gauges read now (a reader that fails or takes too long is left out of this scrape). */
  async render(): Promise<string> {
    const lines: string[] = [];
    for (const [name, readers] of [...this.gauges].sort(([a], [b]) => a.localeCompare(b))) {
      const readings = await Promise.all(readers.map((read) => withTimeout(read()).catch((): GaugeReading => [])));
      const series = readings.flat();
      if (series.length === 0) continue;
      lines.push(...header(name));
      for (const { labels, value } of series) {
        const key = labelKey(labels);
        lines.push(`${name}${key ? `{${key}}` : ''} ${value}`);
      }
    }
    return this.text() + (lines.length > 0 ? `${lines.join('\n')}\n` : '');
  }
}

function header(name: string): string[] {
  const known = METRICS[name as MetricName];
  return known ? [`# HELP ${name} ${known.help}`, `# TYPE ${name} ${known.type}`] : [`# TYPE ${name} counter`];
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('gauge reading timed out')), GAUGE_TIMEOUT_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** One registry per process (embedded mode: every service's metrics, told apart by their `service` label). */
export const processMetrics = new ProcessMetrics();
