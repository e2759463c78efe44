import { ProbeServer, ReadinessCheck } from './probes';
import { processMetrics } from './metrics';

describe(ProbeServer.name, () => {
  let probes: ProbeServer;
  const get = async (path: string) => {
    const response = await fetch(`http://127.0.0.1:${probes.port}${path}`);
    return { status: response.status, body: (await response.json()) as { status: string; checks?: Record<string, string> } };
  };

  beforeEach(async () => {
    probes = await ProbeServer.start(0, undefined, '127.0.0.1');
  });

  afterEach(async () => {
    await probes.close();
  });

  it('is live at once, and unready while starting', async () => {
    expect(await get('/livez')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get('/readyz')).toEqual({ status: 503, body: { status: 'starting', checks: {} } });
  });

  it('is ready when every check passes, and names each failing one otherwise', async () => {
    let databaseUp = true;
    const checks: ReadinessCheck[] = [
      { name: 'nats', run: async () => undefined },
      { name: 'database', run: async () => (databaseUp ? undefined : Promise.reject(new Error('connection refused'))) },
    ];
    probes.running(checks);
    expect(await get('/readyz')).toEqual({ status: 200, body: { status: 'ready', checks: { nats: 'ok', database: 'ok' } } });
    databaseUp = false;
    expect(await get('/readyz')).toEqual({ status: 503, body: { status: 'unavailable', checks: { nats: 'ok', database: 'connection refused' } } });
    expect((await get('/livez')).status).toBe(200);
  });

  it('is unready once stopping, whatever the checks say; still live', async () => {
    probes.running([{ name: 'nats', run: async () => undefined }]);
    probes.stopping();
    expect(await get('/readyz')).toEqual({ status: 503, body: { status: 'stopping', checks: {} } });
    expect((await get('/livez')).status).toBe(200);
  });

  it("serves the process's counters at /metrics in the Prometheus text format", async () => {
    processMetrics.increment('paykit_probe_spec_total', { service: 'cards', source: 'scheduler' });
    const response = await fetch(`http://127.0.0.1:${probes.port}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('paykit_probe_spec_total{service="cards",source="scheduler"} 1\n');
  });

  it('serves latency histograms and gauges read at the scrape; a failing gauge is left out, not the page', async () => {
    processMetrics.observe('paykit_message_duration_seconds', { service: 'probe-spec', subject: 'a.b' }, 0.003);
    processMetrics.observe('paykit_message_duration_seconds', { service: 'probe-spec', subject: 'a.b' }, 0.2);
    const stopReading = processMetrics.gauge('paykit_scheduled_jobs_due', async () => [{ labels: { service: 'probe-spec' }, value: 7 }]);
    const stopFailing = processMetrics.gauge('paykit_consumer_pending_messages', () => Promise.reject(new Error('NATS away')));
    try {
      const text = await (await fetch(`http://127.0.0.1:${probes.port}/metrics`)).text();
      expect(text).toContain('# TYPE paykit_message_duration_seconds histogram\n');
      expect(text).toContain('paykit_message_duration_seconds_bucket{service="probe-spec",subject="a.b",le="0.005"} 1\n');
      expect(text).toContain('paykit_message_duration_seconds_bucket{service="probe-spec",subject="a.b",le="+Inf"} 2\n');
      expect(text).toContain('paykit_message_duration_seconds_count{service="probe-spec",subject="a.b"} 2\n');
      expect(text).toContain('# TYPE paykit_scheduled_jobs_due gauge\npaykit_scheduled_jobs_due{service="probe-spec"} 7\n');
      expect(text).not.toContain('paykit_consumer_pending_messages');
    } finally {
      stopReading();
      stopFailing();
    }
  });

  it('answers 404 elsewhere', async () => {
    expect((await get('/other')).status).toBe(404);
  });
});
