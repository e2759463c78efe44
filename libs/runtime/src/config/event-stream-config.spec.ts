import { ConfigError, loadRuntimeConfig } from './runtime-config';

/** The event stream's and tracing's settings as a distributed process reads them. */
describe('runtime config: event stream and tracing', () => {
  const base = { CARDS_DATABASE_URL: 'postgresql://app@db:5432/app' };
  const load = (env: Record<string, string>) => loadRuntimeConfig({ ...base, ...env }, 'distributed', ['cards']);

  it('defaults to one copy and tracing off', () => {
    const config = load({});
    expect(config.eventStream).toEqual({ replicas: 1, consumerReplicas: 1, storage: 'file', retention: 'limits', maxAgeSeconds: 604800 });
    expect(config.tracing).toEqual({ otlpEndpoint: undefined, sampleRatio: 1 });
  });

  it('reads three copies on a cluster listed in NATS_URL; the consumers follow the stream unless told', () => {
    const config = load({
      NATS_URL: 'nats://n1:4222, nats://n2:4222,nats://n3:4222',
      NATS_STREAM_REPLICAS: '3',
      NATS_STREAM_RETENTION: 'interest',
      NATS_STREAM_MAX_AGE_SECONDS: '3600',
    });
    expect(config.natsUrl).toBe('nats://n1:4222, nats://n2:4222,nats://n3:4222');
    expect(config.eventStream).toMatchObject({ replicas: 3, consumerReplicas: 3, retention: 'interest', maxAgeSeconds: 3600 });
    expect(load({ NATS_STREAM_REPLICAS: '3', NATS_CONSUMER_REPLICAS: '1' }).eventStream?.consumerReplicas).toBe(1);
  });

  it('refuses what NATS or OpenTelemetry would not take, naming each variable', () => {
    const refused = (() => {
      try {
        load({ NATS_URL: 'nats://n1:4222,http://n2', NATS_STREAM_REPLICAS: '7', NATS_STREAM_STORAGE: 'disk', OTEL_TRACES_SAMPLER_ARG: '2' });
        return undefined;
      } catch (error) {
        return error as ConfigError;
      }
    })();
    expect(refused?.problems).toEqual([
      'NATS_URL must be a nats: URL (got "http:")',
      'OTEL_TRACES_SAMPLER_ARG must be a number >= 0 and <= 1 (got "2")',
      'NATS_STREAM_REPLICAS must be an integer >= 1 and <= 5 (got "7")',
      'NATS_STREAM_STORAGE must be one of file, memory (got "disk")',
    ]);
  });
});
