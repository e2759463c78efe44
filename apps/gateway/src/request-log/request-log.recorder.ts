import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { newId, REQUEST_LOG_ID_TYPE } from '@paykit/contracts';
import { Clock, JobScheduler } from '@paykit/persistence';
import { GatewayConfig } from '../config/gateway-config';
import { GATEWAY_CONFIG } from '../http/tokens';
import { RequestLogEntryEntity } from './entities/request-log-entry.entity';
import { PRUNE_REQUEST_LOG_JOB } from './request-log.jobs';
import { RequestLogRepository } from './request-log.repository';

/** A flush goes out this long after the first row that waits for it... */
export const FLUSH_AFTER_MS = 100;
/** ...or at once when this many rows wait. At most this buffer is lost if the process dies. */
export const FLUSH_ROWS = 100;
/** Rows held while the database is slow or away; past this, new rows are dropped (and counted). */
const MAX_BUFFERED = 10_000;
/** A platform's log is pruned at most once per window (the scheduler's dedupe key carries it). */
const PRUNE_WINDOW_MS = 10 * 60_000;

export type RequestLogRecord = Omit<RequestLogEntryEntity, 'id' | 'createdAt'>;

/**
 * Records sandbox platforms' requests off the request path: `record` only appends to a buffer,
 * which goes to the database in one statement every FLUSH_AFTER_MS or FLUSH_ROWS rows. So the
 * request log costs a request an array push, and a crash loses at most the unflushed buffer
 * (about 100 ms of requests). Retention is the scheduler's: the first flush of a platform in each
 * ten-minute window schedules that platform's prune.
 */
@Injectable()
export class RequestLogRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(RequestLogRecorder.name);
  private buffer: RequestLogEntryEntity[] = [];
  private timer?: NodeJS.Timeout;
  /** Flushes run one after another, in record order. */
  private flushing: Promise<void> = Promise.resolve();
  private dropped = 0;
  private closed = false;
  /** The prune window each platform was last scheduled for (so a flush rarely adds a statement). */
  private readonly pruneScheduled = new Map<string, number>();

  constructor(
    private readonly repository: RequestLogRepository,
    private readonly scheduler: JobScheduler,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  get enabled(): boolean {
    return this.config.requestLog.enabled;
  }

  onModuleInit(): void {
    this.scheduler.register(PRUNE_REQUEST_LOG_JOB, (payload, manager) =>
      this.repository.prune(manager, payload.platformId, { rows: this.config.requestLog.retentionRows, days: this.config.requestLog.retentionDays }, Clock.real()),
    );
  }

  record(record: RequestLogRecord): void {
    if (this.closed || !this.enabled) return;
    if (this.buffer.length >= MAX_BUFFERED) {
      this.dropped += 1;
      return;
    }
    this.buffer.push({ ...record, id: newId(REQUEST_LOG_ID_TYPE), createdAt: Clock.real() });
    if (this.buffer.length >= FLUSH_ROWS) void this.flush();
    // Armed only while rows wait: an idle gateway has no timer for the request log.
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  /** Sends what is buffered; resolves when it (and every earlier flush) is written or given up. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.buffer;
    this.buffer = [];
    if (rows.length > 0) this.flushing = this.flushing.then(() => this.write(rows));
    return this.flushing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private async write(rows: RequestLogEntryEntity[]): Promise<void> {
    try {
      await this.repository.insertMany(rows);
      await this.schedulePrunes(rows);
    } catch (error) {
      // The log is a convenience: never fail or slow a request for it.
      this.logger.warn(`Request log: ${rows.length} rows not written: ${(error as Error).message}`);
    }
    if (this.dropped > 0) {
      this.logger.warn(`Request log: ${this.dropped} rows dropped while the buffer was full`);
      this.dropped = 0;
    }
  }

  private async schedulePrunes(rows: RequestLogEntryEntity[]): Promise<void> {
    const window = Math.floor(Clock.real().getTime() / PRUNE_WINDOW_MS);
    const due = [...new Set(rows.map((row) => row.platformId))].filter((platformId) => this.pruneScheduled.get(platformId) !== window);
    if (due.length === 0) return;
    await this.scheduler.scheduleBatch(
      due.map((platformId) => ({
        kind: PRUNE_REQUEST_LOG_JOB,
        payload: { platformId },
        // At the window's end: the rows of the whole window are in by then.
        delayMs: (window + 1) * PRUNE_WINDOW_MS - Clock.real().getTime(),
        dedupeKey: `${PRUNE_REQUEST_LOG_JOB.name}:${platformId}:${window}`,
      })),
    );
    for (const platformId of due) this.pruneScheduled.set(platformId, window);
  }
}
