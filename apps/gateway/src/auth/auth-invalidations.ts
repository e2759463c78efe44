import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';

/** The PostgreSQL channel on the gateway's database that carries credential changes to every replica. */
export const AUTH_INVALIDATION_CHANNEL = 'paykit_auth_invalidation';
/** After a lost listener connection, the next attempt waits this long. */
const RECONNECT_DELAY_MS = 1_000;

/**
 * A credential whose cached verification is no longer right: an agent (paused, resumed, edited,
 * deleted), every agent of a platform (its sandbox state restored or reset) or an API token
 * (deleted, re-issued).
 */
export type AuthInvalidation = { agentId: string } | { agentsOfPlatform: string } | { apiTokenId: string };

/** A replica-local cache kept right by invalidations. */
export interface InvalidationSubscriber {
  invalidate(change: AuthInvalidation): void;
  /** Invalidations may be missed (listener down): stop serving from the cache. */
  suspend(): void;
  /** Invalidations arrive again: start from an empty cache. */
  resume(): void;
}

/** What the listener needs of a `pg` client (a fake one in unit tests). */
export interface NotificationClient {
  connect(): Promise<unknown>;
  query(sql: string): Promise<unknown>;
  end(): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

export interface InvalidationListenerOptions {
  connect: () => NotificationClient;
  onPayload: (payload: string) => void;
  onListening: () => void;
  onLost: (error?: Error) => void;
  retryDelayMs?: number;
  schedule?: (run: () => void, delayMs: number) => unknown;
}

/**
 * One dedicated connection that LISTENs on the channel; when it is lost (error or end) it says
 * so, and connects again after a delay until stopped.
 */
export class InvalidationListener {
  private client: NotificationClient | undefined;
  private stopped = false;

  constructor(private readonly options: InvalidationListenerOptions) {}

  start(): void {
    void this.attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    const client = this.options.connect();
    this.client = client;
    client.on('notification', (message) => {
      if (this.client === client && message.channel === AUTH_INVALIDATION_CHANNEL && message.payload) this.options.onPayload(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${AUTH_INVALIDATION_CHANNEL}`);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    if (this.client === client) this.options.onListening();
  }

  private lost(client: NotificationClient, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.options.onLost(error);
    client.end().catch(() => undefined);
    if (this.stopped) return;
    const timer = (this.options.schedule ?? setTimeout)(() => void this.attempt(), this.options.retryDelayMs ?? RECONNECT_DELAY_MS);
    (timer as { unref?: () => unknown } | undefined)?.unref?.();
  }
}

/**
 * Carries credential changes to every gateway replica's caches. A change is written with
 * `transaction`: a NOTIFY goes out inside the same transaction (so other replicas hear it only
 * once it commits), and this replica's caches drop it right after the commit. Distributed: each
 * replica LISTENs on its own connection; while that connection is down its caches serve nothing,
 * and they start empty when it is back. Embedded: one process, so the local drop is all there is.
 */
@Injectable()
export class AuthInvalidations implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuthInvalidations.name);
  private readonly subscribers: InvalidationSubscriber[] = [];
  private readonly distributed: boolean;
  private listening: boolean;
  private listener: InvalidationListener | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
  ) {
    this.distributed = config.mode === 'distributed';
    this.listening = !this.distributed;
  }

  /** Whether changes made through other replicas reach this one now (so its caches are on). */
  get isListening(): boolean {
    return this.listening;
  }

  subscribe(subscriber: InvalidationSubscriber): void {
    this.subscribers.push(subscriber);
    if (!this.listening) subscriber.suspend();
  }

  /** Runs `work` in a transaction that announces `changes` to every replica when it commits. */
  async transaction<T>(changes: AuthInvalidation[], work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.dataSource.transaction(async (manager) => {
      const value = await work(manager);
      if (this.distributed) {
        for (const change of changes) await manager.query(`SELECT pg_notify($1, $2)`, [AUTH_INVALIDATION_CHANNEL, JSON.stringify(change)]);
      }
      return value;
    });
    for (const change of changes) this.dispatch(change);
    return result;
  }

  onApplicationBootstrap(): void {
    if (!this.distributed) return;
    const url = this.config.databaseUrls.gateway;
    if (!url) throw new Error('No database URL configured for gateway');
    this.listener = new InvalidationListener({
      connect: () => new Client({ connectionString: url, application_name: 'paykit-gateway-invalidations' }),
      onPayload: (payload) => this.received(payload),
      onListening: () => {
        this.listening = true;
        for (const subscriber of this.subscribers) subscriber.resume();
      },
      onLost: (error) => {
        this.listening = false;
        for (const subscriber of this.subscribers) subscriber.suspend();
        this.logger.warn(`Credential invalidation listener lost (${error?.message ?? 'connection ended'}); caches off until it reconnects`);
      },
    });
    this.listener.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener?.stop();
  }

  private received(payload: string): void {
    let change: AuthInvalidation;
    try {
      change = JSON.parse(payload) as AuthInvalidation;
    } catch {
      // Not ours to understand: forget everything rather than keep something stale.
      for (const subscriber of this.subscribers) {
        subscriber.suspend();
        subscriber.resume();
      }
      return;
    }
    this.dispatch(change);
  }

  private dispatch(change: AuthInvalidation): void {
    for (const subscriber of this.subscribers) subscriber.invalidate(change);
  }
}
