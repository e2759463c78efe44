import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { EventBatchHandler, EventHandler } from '@paykit/transport';
import { returningRows } from '../query-rows';
import { preparedStatement } from '../prepared-statements';

/** The platform whose time the code running now reads, and how far ahead of real time it is. */
interface PlatformTime {
  platformId: string;
  offsetMs: number;
  /** A scheduled job runs at its due time ("as if the time had passed"), not when it was picked up. */
  pinnedAt?: number;
}

/**
 * Another replica (or service instance) learns of an advance within this long: a platform's offset
 * is read from the database at most this often per process. The process that handled the advance
 * knows at once.
 */
export const PLATFORM_OFFSET_STALENESS_MS = 1_000;

/**
 * Runs what an advance made due (the scheduler, the webhook worker). It calls `store` (which saves
 * the new offset) once, and may hold its own passes off around it, so none of them sees the new
 * time before the advance's own run in due order.
 */
export type ClockAdvanceListener = (platformId: string, store: () => Promise<void>) => Promise<void>;

/**
 * The one clock of a service. Domain code reads `now()`: the sandbox time of the platform it is
 * working for (each RPC, scheduled job and consumed event runs in its platform's time), real time
 * when no platform is in scope. A platform's time is real time plus the offset its test clock was
 * advanced by, kept in the service's own `platform_clock` table so every replica agrees.
 * Plumbing keeps real time: leases, timeouts and wake-up timers, log timestamps and metrics, ids
 * (uuidv7), API token expiry and caching at the gateway, OIDC token lifetimes (set by their issuer),
 * and the request validation of dates against today.
 */
@Injectable()
export class Clock {
  private readonly scope = new AsyncLocalStorage<PlatformTime>();
  /** Each platform's offset as last read (or being read: concurrent callers share one query). */
  private readonly offsets = new Map<string, { offsetMs: Promise<number>; readAt: number }>();
  private readonly listeners: ClockAdvanceListener[] = [];

  constructor(private readonly dataSource: DataSource) {}

  /** Real time, for plumbing that must not follow a test clock. */
  static real(): Date {
    return new Date();
  }

  /** The time of the platform in scope (see the class comment). */
  now(): Date {
    const time = this.scope.getStore();
    if (!time) return new Date();
    return new Date(time.pinnedAt ?? Date.now() + time.offsetMs);
  }

  /** A given platform's time (the one in scope reads as `now()`). */
  async nowFor(platformId: string): Promise<Date> {
    const time = this.scope.getStore();
    if (time?.platformId === platformId) return this.now();
    return new Date(Date.now() + (await this.offsetMs(platformId)));
  }

  /** Runs `work` in the platform's time. */
  async within<T>(platformId: string, work: () => Promise<T>): Promise<T> {
    const offsetMs = await this.offsetMs(platformId);
    return this.scope.run({ platformId, offsetMs }, work);
  }

  /**
   * Runs `work` in the platform's time (its offset read beforehand: inside a transaction nothing
   * else may be read) with `now()` reading `at`: a scheduled job runs at its due time.
   */
  at<T>(platformId: string, offsetMs: number, at: Date, work: () => T): T {
    // Never later than the platform's own now: a job is only ever run once it is due.
    const pinnedAt = Math.min(at.getTime(), Date.now() + offsetMs);
    return this.scope.run({ platformId, offsetMs, pinnedAt }, work);
  }

  /** Whether the code running now works in this platform's time already. */
  inScope(platformId: string): boolean {
    return this.scope.getStore()?.platformId === platformId;
  }

  /** A consumer's event handler that runs each event in the time of the platform it belongs to. */
  inPlatformTime(handler: EventHandler): EventHandler {
    return (event) => this.within(event.platformId, () => handler(event));
  }

  /**
   * A batch consumer's handler that runs each platform's events of a batch in that platform's
   * time: one call per platform, in the order each platform first appears (a resource belongs to
   * one platform, so its events keep their order).
   */
  inPlatformTimeBatches(handler: EventBatchHandler): EventBatchHandler {
    return async (events) => {
      const byPlatform = new Map<string, typeof events>();
      for (const event of events) {
        const ofPlatform = byPlatform.get(event.platformId);
        if (ofPlatform) ofPlatform.push(event);
        else byPlatform.set(event.platformId, [event]);
      }
      for (const [platformId, ofPlatform] of byPlatform) await this.within(platformId, () => handler(ofPlatform));
    };
  }

  /** How far the platform's time runs ahead of real time, in ms (cached, see PLATFORM_OFFSET_STALENESS_MS). */
  offsetMs(platformId: string): Promise<number> {
    const cached = this.offsets.get(platformId);
    if (cached && Date.now() - cached.readAt < PLATFORM_OFFSET_STALENESS_MS) return cached.offsetMs;
    const reading = this.storedOffsetSeconds(platformId).then((seconds) => seconds * 1000);
    this.offsets.set(platformId, { offsetMs: reading, readAt: Date.now() });
    // A failed read is not kept: the next caller reads again.
    reading.catch(() => this.offsets.get(platformId)?.offsetMs === reading && this.offsets.delete(platformId));
    return reading;
  }

  /** The offset as stored (no cache), in seconds. */
  async storedOffsetSeconds(platformId: string): Promise<number> {
    const rows = await this.dataSource.query<Array<{ offset_seconds: string }>>(preparedStatement(`SELECT offset_seconds FROM platform_clock WHERE platform_id = $1`), [
      platformId,
    ]);
    return rows.length > 0 ? Number(rows[0].offset_seconds) : 0;
  }

  /**
   * Moves the platform's offset to `offsetSeconds` unless it is already there or beyond (time
   * only moves forward; a repeated message changes nothing), then runs what fell due.
   * Returns the offset now stored.
   */
  async advanceTo(platformId: string, offsetSeconds: number): Promise<number> {
    let stored = 0;
    const store = async (): Promise<void> => {
      const rows = await returningRows<{ offset_seconds: string }>(
        this.dataSource,
        `INSERT INTO platform_clock (platform_id, offset_seconds) VALUES ($1, $2)
         ON CONFLICT (platform_id) DO UPDATE SET offset_seconds = GREATEST(platform_clock.offset_seconds, EXCLUDED.offset_seconds), updated_at = now()
         RETURNING offset_seconds`,
        [platformId, offsetSeconds],
      );
      stored = Number(rows[0].offset_seconds);
      this.remember(platformId, stored);
    };
    // The first listener wraps the second, ... the last wraps the store.
    const run = this.listeners.reduceRight<() => Promise<void>>((inner, listener) => () => listener(platformId, inner), store);
    await run();
    return stored;
  }

  /** Moves the platform's offset forward by `seconds` (atomic: concurrent advances add up); returns the new offset. */
  async advanceBy(platformId: string, seconds: number): Promise<number> {
    const rows = await returningRows<{ offset_seconds: string }>(
      this.dataSource,
      `INSERT INTO platform_clock (platform_id, offset_seconds) VALUES ($1, $2)
       ON CONFLICT (platform_id) DO UPDATE SET offset_seconds = platform_clock.offset_seconds + EXCLUDED.offset_seconds, updated_at = now()
       RETURNING offset_seconds`,
      [platformId, seconds],
    );
    return this.remember(platformId, Number(rows[0].offset_seconds)) / 1000;
  }

  /**
   * Sets the platform's offset to what a sandbox snapshot saved, back in time if need be: only a
   * restore or reset of the platform's whole state does this (every other change moves forward).
   */
  async restoreOffset(platformId: string, offsetSeconds: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO platform_clock (platform_id, offset_seconds) VALUES ($1, $2)
       ON CONFLICT (platform_id) DO UPDATE SET offset_seconds = EXCLUDED.offset_seconds, updated_at = now()`,
      [platformId, offsetSeconds],
    );
    this.remember(platformId, offsetSeconds);
  }

  /** Drops what this process knows of the platform's offset (its rows were replaced): the next read goes to the database. */
  forget(platformId: string): void {
    this.offsets.delete(platformId);
  }

  /** Runs `listener` after each advance of a platform, before the advance is answered. */
  onAdvance(listener: ClockAdvanceListener): void {
    this.listeners.push(listener);
  }

  private remember(platformId: string, offsetSeconds: number): number {
    const offsetMs = offsetSeconds * 1000;
    this.offsets.set(platformId, { offsetMs: Promise.resolve(offsetMs), readAt: Date.now() });
    return offsetMs;
  }
}
