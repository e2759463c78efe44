import { EventEmitter } from 'node:events';
import { AUTH_INVALIDATION_CHANNEL, InvalidationListener, NotificationClient } from './auth-invalidations';

/** A `pg` client as the listener sees it: connects (or fails to), LISTENs, emits notifications, errors and ends. */
class FakeClient extends EventEmitter implements NotificationClient {
  readonly queries: string[] = [];
  ended = false;
  constructor(private readonly fails: boolean) {
    super();
  }
  async connect(): Promise<void> {
    if (this.fails) throw new Error('connection refused');
  }
  async query(sql: string): Promise<void> {
    this.queries.push(sql);
  }
  async end(): Promise<void> {
    this.ended = true;
  }
}

describe(InvalidationListener.name, () => {
  function setup(failures = 0) {
    const clients: FakeClient[] = [];
    const timers: (() => void)[] = [];
    const events: string[] = [];
    const listener = new InvalidationListener({
      connect: () => {
        const client = new FakeClient(clients.length < failures);
        clients.push(client);
        return client;
      },
      onPayload: (payload) => events.push(`payload ${payload}`),
      onListening: () => events.push('listening'),
      onLost: (error) => events.push(`lost ${error?.message ?? 'ended'}`),
      retryDelayMs: 1_000,
      schedule: (run) => timers.push(run),
    });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    return { clients, timers, events, listener, settle };
  }

  it('LISTENs on the channel and passes its notifications on (only its channel)', async () => {
    const { clients, events, listener, settle } = setup();
    listener.start();
    await settle();
    expect(clients[0].queries).toEqual([`LISTEN ${AUTH_INVALIDATION_CHANNEL}`]);
    clients[0].emit('notification', { channel: AUTH_INVALIDATION_CHANNEL, payload: '{"agentId":"Agent:1"}' });
    clients[0].emit('notification', { channel: 'something_else', payload: 'x' });
    expect(events).toEqual(['listening', 'payload {"agentId":"Agent:1"}']);
  });

  it('reports a lost connection once, reconnects after the delay and reports listening again', async () => {
    const { clients, timers, events, listener, settle } = setup();
    listener.start();
    await settle();
    clients[0].emit('error', new Error('terminated'));
    clients[0].emit('end');
    expect(events).toEqual(['listening', 'lost terminated']);
    expect(clients[0].ended).toBe(true);
    // A notification on the dead connection is not trusted.
    clients[0].emit('notification', { channel: AUTH_INVALIDATION_CHANNEL, payload: 'late' });
    expect(timers).toHaveLength(1);
    timers[0]();
    await settle();
    expect(clients).toHaveLength(2);
    expect(events).toEqual(['listening', 'lost terminated', 'listening']);
  });

  it('keeps retrying while the database cannot be reached', async () => {
    const { clients, timers, events, listener, settle } = setup(2);
    listener.start();
    await settle();
    timers.shift()!();
    await settle();
    timers.shift()!();
    await settle();
    expect(clients).toHaveLength(3);
    expect(events).toEqual(['lost connection refused', 'lost connection refused', 'listening']);
  });

  it('stops without reconnecting', async () => {
    const { clients, timers, listener, settle } = setup();
    listener.start();
    await settle();
    await listener.stop();
    clients[0].emit('end');
    expect(clients[0].ended).toBe(true);
    expect(timers).toHaveLength(0);
  });
});
