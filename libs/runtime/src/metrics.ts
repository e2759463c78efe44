/**
 * The process's counters, by name and labels, in the Prometheus text format the probe listener
 * serves at `/metrics` (distributed mode, HEALTH_PORT). Counters only: what an operator alerts on
 * (e.g. messages dead-lettered), not a profiling tool.
 */
export class ProcessMetrics {
  private readonly counters = new Map<string, Map<string, number>>();

  increment(name: string, labels: Record<string, string> = {}, by = 1): void {
    let series = this.counters.get(name);
    if (!series) this.counters.set(name, (series = new Map<string, number>()));
    const key = Object.entries(labels)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, value]) => `${label}="${value.replace(/["\\\n]/g, '_')}"`)
      .join(',');
    series.set(key, (series.get(key) ?? 0) + by);
  }

  value(name: string, labels: Record<string, string> = {}): number {
    let total = 0;
    for (const [key, count] of this.counters.get(name) ?? []) {
      if (Object.entries(labels).every(([label, value]) => key.includes(`${label}="${value}"`))) total += count;
    }
    return total;
  }

  text(): string {
    const lines: string[] = [];
    for (const [name, series] of [...this.counters].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`# TYPE ${name} counter`);
      for (const [key, count] of series) lines.push(`${name}${key ? `{${key}}` : ''} ${count}`);
    }
    return lines.length > 0 ? `${lines.join('\n')}\n` : '';
  }
}

/** One registry per process (embedded mode: every service's counters, told apart by their `service` label). */
export const processMetrics = new ProcessMetrics();
