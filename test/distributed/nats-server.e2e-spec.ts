import { uuidv7 } from '@paykit/contracts';
import { NATS_TEST_URL } from '@paykit/testing';
import { MessageLog, NatsClient, NatsServer, TransportFailure } from '@paykit/transport';

/**
 * NatsServer relies on Nest's ServerNats for connecting and closing, and replaces its
 * subscriptions with its own (one lean request path per handler) and its grace period with a wait
 * for the requests in flight. This fails if Nest stops calling `bindEvents` to subscribe, or
 * stops closing through `close`.
 */
describe(NatsServer.name, () => {
  const namespace = `nats-server-${uuidv7()}`;
  const transport = { url: NATS_TEST_URL, namespace, name: 'nats-server-spec' };

  it('answers each request through its own subscription, and takes none once closed', async () => {
    const handled: string[] = [];
    const log: MessageLog = { handled: (entry) => handled.push(entry.subject) };
    const server = new NatsServer({ ...transport, queue: 'nats-server-spec' }, log);
    server.addHandler('spec.echo', async (data: unknown) => data, false);
    await new Promise<void>((resolve, reject) => {
      void server.listen((error?: unknown) => (error === undefined ? resolve() : reject(new Error('The NATS server did not start'))));
    });
    const client = new NatsClient(transport);
    try {
      await expect(client.request('spec.echo', { said: 'hello' }, 5000)).resolves.toEqual({ said: 'hello' });
      // Only this server's path reports to the message log: Nest's own would have answered unlogged.
      expect(handled).toEqual(['spec.echo']);
      await server.close();
      await expect(client.request('spec.echo', { said: 'again' }, 5000)).rejects.toEqual(new TransportFailure('NO_RESPONDERS'));
    } finally {
      await client.close();
    }
  });

  it('answers a request in flight when it closes, before closing its connection', async () => {
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const handlerMayFinish = new Promise<void>((resolve) => (finish = resolve));
    const server = new NatsServer({ ...transport, queue: 'nats-server-spec-grace' });
    server.addHandler(
      'spec.slow',
      async (data: unknown) => {
        started();
        await handlerMayFinish;
        return data;
      },
      false,
    );
    await new Promise<void>((resolve, reject) => {
      void server.listen((error?: unknown) => (error === undefined ? resolve() : reject(new Error('The NATS server did not start'))));
    });
    const client = new NatsClient(transport);
    try {
      const answer = client.request('spec.slow', { said: 'in flight' }, 5000);
      await handlerStarted;
      const closing = server.close();
      finish();
      await closing;
      await expect(answer).resolves.toEqual({ said: 'in flight' });
    } finally {
      await client.close();
    }
  });
});
