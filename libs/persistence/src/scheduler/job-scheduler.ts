import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '@paykit/contracts';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { contextFrom, currentTraceparent, inSpan, tracingEnabled } from '@paykit/transport';
import { validateContract } from '@paykit/validation';
import { TransactionRunner } from '../transaction-runner';
import { idlePollMs } from '../idle-poll';
import { returningRows } from '../query-rows';
import { preparedStatement } from '../prepared-statements';
import { Clock } from '../clock/clock';
import { Statement } from '../statement';
import { DeadLetterStore } from '../dead-letters/dead-letter-store';
import { backoffAfter, isTransientFailure } from '../dead-letters/failure-classification';

/**
 * A kind of job and its payload contract: the scheduler takes only that payload for it, and
 * validates a job's stored payload against the class before its handler runs. Job kinds are
 * private to the service that owns them; each feature lists its own in `<feature>.jobs.ts`.
 */
export interface JobKind<P extends object> {
  /** Stored with every job of the kind, so a wire value: frozen. */
  readonly name: string;
  readonly payload: ClassConstructor<P>;
}

export type JobHandler<P> = (payload: P, manager: EntityManager) => Promise<void>;

/**
 * Runs once before the handlers of a batch's jobs of its kind, in the batch's transaction, with
 * their payloads in run order: to read what those handlers need in one statement instead of one
 * each. A payload that fails validation is left out (its own handler fails its job).
 */
export type JobPreparer<P> = (payloads: P[], manager: EntityManager) => Promise<void>;

/** A registered kind: its handler and preparer, both taking the stored payload. */
interface RegisteredKind {
  run: JobHandler<unknown>;
  prepare?: JobPreparer<unknown>;
}

export interface ScheduleRequest<P extends object> {
  kind: JobKind<P>;
  payload: P;
  delayMs: number;
  /** Sandbox delays shrink with SANDBOX_TIME_SCALE; real-world retries do not. */
  sandboxDelay?: boolean;
  /** A job with the same key is scheduled once. */
  dedupeKey?: string;
  /**
   * The platform the job works for: its delay counts in that platform's sandbox time, so
   * advancing the platform's test clock makes it due, and it runs in that time.
   */
  platformId?: string;
}

/** A job this pass claimed, with the attempt number its claim gave it. */
interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  platformId: string | null;
  /** When it fell due, in its platform's time. */
  runAt: Date;
  /** Its platform's clock offset when it was claimed (read with the claim: a job's transaction cannot read outside it). */
  offsetMs: number;
  /** The traceparent of the work that scheduled it (null when tracing was off). */
  traceContext: string | null;
}

/**
 * Idle polling: a process wakes itself when a job it scheduled (or retried) falls due; polls only
 * cover what it cannot see coming (a late commit, another replica's job or expired lease), so
 * they back off from POLL_MIN_MS to POLL_MAX_MS while nothing runs: an idle service costs a
 * statement every few seconds, not ten a second.
 */
const POLL_MIN_MS = 100;
const POLL_MAX_MS = 10_000;
/** How soon a claim of a process that died is taken again (the row lock, not the lease, keeps a job from running twice). */
const LEASE_SECONDS = 15;

/**
 * Every run job leaves dead entries in the due index (its PENDING and RUNNING versions), and a
 * claim reads past all of them until a vacuum removes them: at a few hundred jobs a second, the
 * claim cost milliseconds within a minute (autovacuum's pace). So a process vacuums the table (and
 * refreshes its statistics, which lag behind a table that grows from nothing) itself after this
 * many jobs.
 */
const VACUUM_AFTER_JOBS = 1_000;

/** Inserts the jobs of a JSON recordset; a job whose platform is not in scope gets that platform's clock offset added here. */
const SCHEDULE_JOBS = preparedStatement(`INSERT INTO scheduled_job (id, kind, payload, run_at, dedupe_key, platform_id, trace_context)
   SELECT id, kind, payload,
          run_at + CASE WHEN add_offset THEN COALESCE((SELECT c.offset_seconds FROM platform_clock c WHERE c.platform_id = t.platform_id), 0) ELSE 0 END * interval '1 second',
          dedupe_key, platform_id, trace_context
     FROM jsonb_to_recordset($1::jsonb) AS t(id uuid, kind text, payload jsonb, run_at timestamptz, dedupe_key text, platform_id text, add_offset boolean, trace_context text)
   ON CONFLICT (dedupe_key) DO NOTHING`);

/** `runWithin`'s DONE mark, for one job or a batch: each job by its id and the attempt number of this pass's claim. */
const MARK_DONE = preparedStatement(`UPDATE scheduled_job j SET status = 'DONE', locked_until = NULL, updated_at = now()
    FROM unnest($1::uuid[], $2::int[]) AS claim(id, attempts)
   WHERE j.id = claim.id AND j.status = 'RUNNING' AND j.attempts = claim.attempts
  RETURNING j.id`);

/**
 * Durable delayed jobs on the service's own database. A job runs in one transaction with
 * the row that marks it done, and that transaction first locks the row and checks the claim is
 * still its own, so it takes effect exactly once even when replicas race or a process dies
 * mid-run (the lease expires and another replica retries it).
 *
 * A failing job is retried later with exponential backoff, never holding up the other due jobs.
 * A transient failure (database, NATS or another service unavailable) is retried for as long as
 * it lasts; any other, once the job has had `maxAttempts` attempts, marks it DEAD and parks it in
 * the dead-letter table in the same transaction (`npm run dead-letters -- replay` queues it again).
 */
@Injectable()
export class JobScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(JobScheduler.name);
  private readonly handlers = new Map<string, RegisteredKind>();
  private timer?: NodeJS.Timeout;
  /** When the armed timer fires (epoch ms). */
  private armedFor = Number.POSITIVE_INFINITY;
  /** Due times (epoch ms, real time) of jobs this process scheduled and has not yet polled for. */
  private wakeTimes: number[] = [];
  private idleDelay = POLL_MIN_MS;
  /** Bumped by every wake-up asked for: a pass that overlapped one does not back off. */
  private wakeRequests = 0;
  /** Jobs this process ran since it last vacuumed the job table. */
  private ranSinceVacuum = 0;
  /** VACUUM_AFTER_JOBS; a test lowers it. */
  vacuumAfterJobs = VACUUM_AFTER_JOBS;
  private running = false;
  private stopped = true;
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
    private readonly deadLetters: DeadLetterStore,
    private readonly clock: Clock,
  ) {
    // A replayed job is due again at once, with its attempts counted afresh.
    deadLetters.onReplay('scheduler', '*', async (letter) => {
      await this.dataSource.query(
        `UPDATE scheduled_job SET status = 'PENDING', attempts = 0, run_at = now(), locked_until = NULL, last_error = NULL, updated_at = now() WHERE id = $1 AND status = 'DEAD'`,
        [letter.messageId],
      );
      this.arm(0);
    });
    // An advanced test clock is answered once every job of the platform it made due has run, in
    // due order: no poll of this process sees the new time before that run.
    clock.onAdvance((platformId, store) =>
      this.exclusively(async () => {
        await store();
        await this.runAllDue(platformId);
      }),
    );
  }

  /**
   * Fields a payload does not declare are dropped: a replica one release behind may have
   * scheduled the job (docs/compatibility.md). A payload that fails validation fails its job,
   * which is retried and then parked as DEAD with the error, like any other non-transient failure.
   */
  register<P extends object>(kind: JobKind<P>, handler: JobHandler<P>, prepare?: JobPreparer<P>): void {
    const validated = (stored: unknown) => validateContract(kind.payload, stored, { unknownFields: 'drop' });
    this.handlers.set(kind.name, {
      run: (stored, manager) => handler(validated(stored), manager),
      prepare:
        prepare &&
        ((stored, manager) =>
          prepare(
            stored.flatMap((payload) => {
              try {
                return [validated(payload)];
              } catch {
                return [];
              }
            }),
            manager,
          )),
    });
  }

  /** One job, in the caller's transaction: it exists if and only if the caller's change commits. */
  schedule<P extends object>(manager: EntityManager, request: ScheduleRequest<P>): Promise<void> {
    return this.scheduleBatch([request], manager);
  }

  /**
   * Several jobs in one statement. Without a manager they commit on their own (no transaction of
   * the caller's): for jobs that must be durable before the caller goes on, many callers sharing
   * the statement.
   */
  async scheduleBatch<P extends object>(requests: Array<ScheduleRequest<P>>, runner: DataSource | EntityManager = this.dataSource): Promise<void> {
    if (requests.length === 0) return;
    const { sql, params } = this.scheduleStatement(requests);
    await runner.query(sql, params);
  }

  /**
   * The INSERT that schedules `requests` (no RETURNING), for a caller that writes it in one
   * statement with its other changes (`Outbox.addWithChange`). The scheduler's wake-up is armed
   * now: a statement that then fails only costs a pass that finds nothing due.
   */
  scheduleStatement<P extends object>(requests: Array<ScheduleRequest<P>>): Statement {
    const scheduledAt = Date.now();
    const traceContext = currentTraceparent();
    const rows = requests.map((request) => {
      const scale = request.sandboxDelay ? this.config.sandboxTimeScale : 1;
      // Due when real time has moved on by the (scaled) delay, whatever the platform's offset.
      this.wakeAt(scheduledAt + Math.max(0, Math.round(request.delayMs * scale)));
      // run_at is in the job's platform time (real time for a job of no platform). The platform in
      // scope (a request's, or a job's at its due time) gives it here; another platform's offset is
      // added by the statement, in the caller's transaction (embedded mode has one session).
      const inScope = request.platformId !== undefined && this.clock.inScope(request.platformId);
      const base = inScope || !request.platformId ? this.clock.now() : Clock.real();
      return {
        id: uuidv7(),
        kind: request.kind.name,
        payload: request.payload,
        run_at: new Date(base.getTime() + Math.max(0, Math.round(request.delayMs * scale))).toISOString(),
        dedupe_key: request.dedupeKey ?? null,
        platform_id: request.platformId ?? null,
        add_offset: !inScope && request.platformId !== undefined,
        trace_context: traceContext,
      };
    });
    return { sql: SCHEDULE_JOBS, params: [JSON.stringify(rows)] };
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.arm(0);
  }

  /**
   * Stops (and waits for the pass in progress) before the database closes: Nest destroys the
   * DataSource in its own shutdown hook, and a query caught by that never settles.
   */
  beforeApplicationShutdown(): Promise<void> {
    return this.onApplicationShutdown();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await new Promise((r) => setTimeout(r, 10));
    await this.turn;
  }

  private arm(delay: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = Date.now() + delay;
    this.timer = setTimeout(() => void this.tick(), delay);
  }

  /**
   * Polls soon after `dueAt`, and briefly keeps polling often: the job becomes visible when its
   * transaction commits, which may be a little later.
   */
  private wakeAt(dueAt: number): void {
    if (this.wakeTimes.length < 10_000) this.wakeTimes.push(dueAt);
    this.idleDelay = POLL_MIN_MS;
    this.wakeRequests += 1;
    if (!this.running && dueAt < this.armedFor) this.arm(Math.max(0, dueAt - Date.now()));
  }

  /** Until the next due time this process knows of, or the idle poll, whichever is sooner. */
  private nextDelay(): number {
    const now = Date.now();
    this.wakeTimes = this.wakeTimes.filter((dueAt) => dueAt > now);
    const nextWake = this.wakeTimes.reduce((soonest, dueAt) => Math.min(soonest, dueAt), Number.POSITIVE_INFINITY);
    return Math.max(0, Math.min(this.idleDelay, nextWake - now));
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      let ranAny = false;
      const wakeRequests = this.wakeRequests;
      await this.exclusively(async () => {
        let ran: number;
        do {
          ran = await this.runDueJobs();
          ranAny ||= ran > 0;
          this.ranSinceVacuum += ran;
          if (this.ranSinceVacuum >= this.vacuumAfterJobs) await this.vacuum();
        } while (ran > 0 && !this.stopped);
      });
      this.idleDelay = ranAny || wakeRequests !== this.wakeRequests ? POLL_MIN_MS : Math.min(idlePollMs(this.config, POLL_MAX_MS), this.idleDelay * 2);
    } catch (error) {
      this.idleDelay = POLL_MIN_MS;
      if (!this.stopped) this.logger.warn(`Scheduler poll failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
      this.arm(this.nextDelay());
    }
  }

  /** Outside any transaction (VACUUM cannot run in one); a table another vacuum holds is skipped, and a failure only costs a slower claim. */
  private async vacuum(): Promise<void> {
    this.ranSinceVacuum = 0;
    try {
      await this.dataSource.query(`VACUUM (ANALYZE, SKIP_LOCKED) scheduled_job`);
    } catch (error) {
      this.logger.warn(`Vacuum of the job table failed: ${(error as Error).message}`);
    }
  }

  /**
   * Runs every job of the platform that is due in its time, one at a time in due order (a job
   * that schedules a follow-up already due runs it before any later one), until none is due.
   * Jobs another replica holds at that moment are left to it.
   */
  private async runAllDue(platformId: string): Promise<void> {
    while (!this.stopped && (await this.runDueJobs(platformId, 1)) > 0);
  }

  /** Passes of this process run one at a time (the poll and the runs an advance asks for). */
  private exclusively(work: () => Promise<void>): Promise<void> {
    const turn = this.turn.then(work);
    this.turn = turn.catch(() => undefined);
    return turn;
  }

  private async runDueJobs(platformId?: string, limit = 20): Promise<number> {
    if (this.handlers.size === 0) return 0;
    const kinds = [...this.handlers.keys()];
    // Due in the job's platform time: real now plus the offset its test clock was advanced by.
    const due = await returningRows<Omit<ClaimedJob, 'runAt' | 'offsetMs'> & { runAt: Date | string; offsetSeconds: string | number }>(
      this.dataSource,
      `UPDATE scheduled_job SET status = 'RUNNING', locked_until = now() + interval '${LEASE_SECONDS} seconds', attempts = attempts + 1, updated_at = now()
        WHERE id IN (SELECT j.id FROM scheduled_job j
                      WHERE j.kind IN (${kinds.map((_, i) => `$${i + 4}`).join(', ')})
                        AND ($3::text IS NULL OR j.platform_id = $3)
                        AND ((j.status = 'PENDING' AND j.run_at <= $1::timestamptz
                               + COALESCE((SELECT c.offset_seconds FROM platform_clock c WHERE c.platform_id = j.platform_id), 0) * interval '1 second')
                             OR (j.status = 'RUNNING' AND j.locked_until < now()))
                      ORDER BY j.run_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id, kind, payload, attempts, platform_id AS "platformId", run_at AS "runAt", trace_context AS "traceContext",
                  COALESCE((SELECT c.offset_seconds FROM platform_clock c WHERE c.platform_id = scheduled_job.platform_id), 0) AS "offsetSeconds"`,
      [Clock.real(), limit, platformId ?? null, ...kinds],
    );
    const jobs = due.map(({ offsetSeconds, ...job }) => ({ ...job, runAt: new Date(job.runAt), offsetMs: Number(offsetSeconds) * 1000 }));
    // RETURNING comes back in no particular order; due jobs run oldest first.
    jobs.sort((a, b) => a.runAt.getTime() - b.runAt.getTime());
    if (jobs.length > 1 && (await this.runTogether(jobs))) return jobs.length;
    for (const job of jobs) await this.run(job);
    return jobs.length;
  }

  /**
   * Group commit: the claimed jobs in one transaction, one after another in due order (one
   * BEGIN and one COMMIT for the batch instead of one of each per job). Each job is still done
   * exactly once: it commits with its DONE mark or not at all. If any job fails, the whole batch
   * rolls back and false sends every job of it through `run`, one transaction each, where only
   * the failing one is retried.
   */
  private async runTogether(jobs: ClaimedJob[]): Promise<boolean> {
    try {
      await this.transactions.run((manager) => this.runWithin(manager, jobs));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Runs the claimed jobs that are still this pass's (their attempt numbers), in order, each
   * marked DONE by one statement for all of them first, then each kind's preparer (if any) once. A replica that re-claimed a job after the
   * lease expired bumped its number, so this pass stands down for it; the mark locks the rows
   * until the transaction ends, so meanwhile the claim skips them. So a job takes effect once,
   * however long a pass is held up between its claim and its transaction. The mark commits only
   * with the handlers' work: a handler that throws rolls it back with the rest.
   */
  private async runWithin(manager: EntityManager, jobs: ClaimedJob[]): Promise<void> {
    const owned = await returningRows<{ id: string }>(manager, MARK_DONE, [jobs.map((job) => job.id), jobs.map((job) => job.attempts)]);
    const ownedIds = new Set(owned.map((row) => row.id));
    const running = jobs.filter((job) => ownedIds.has(job.id));
    for (const [kind, { prepare }] of this.handlers) {
      const payloads = running.filter((job) => job.kind === kind).map((job) => job.payload);
      if (prepare && payloads.length > 0) await prepare(payloads, manager);
    }
    for (const job of running) await this.runHandler(manager, job);
  }

  private async runHandler(manager: EntityManager, job: ClaimedJob): Promise<void> {
    if (!tracingEnabled()) return this.runHandlerNow(manager, job);
    // The step as a span of the trace that scheduled it.
    const attributes = { 'paykit.job.kind': job.kind, 'paykit.job.id': job.id, 'paykit.job.attempt': job.attempts };
    await inSpan(`job ${job.kind}`, { parent: contextFrom(job.traceContext), attributes }, () => this.runHandlerNow(manager, job));
  }

  private async runHandlerNow(manager: EntityManager, job: ClaimedJob): Promise<void> {
    const handler = this.handlers.get(job.kind)!.run;
    // A job of a platform runs at its due time in that platform's time, as if the time had passed.
    if (job.platformId) await this.clock.at(job.platformId, job.offsetMs, job.runAt, () => handler(job.payload, manager));
    else await handler(job.payload, manager);
  }

  private async run(job: ClaimedJob): Promise<void> {
    try {
      await this.transactions.run((manager) => this.runWithin(manager, [job]));
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      const transient = isTransientFailure(error);
      if (!transient && job.attempts >= this.deadLetters.policy.maxAttempts) {
        await this.park(job, error);
        return;
      }
      // In the job's platform time, like its run_at.
      const backoff = backoffAfter(this.deadLetters.policy, job.attempts);
      const retryAt = new Date(Date.now() + job.offsetMs + backoff);
      this.wakeAt(Date.now() + backoff);
      this.logger.warn(`Job ${job.kind} ${job.id} failed (attempt ${job.attempts}${transient ? ', transient' : ''}): ${message}`);
      await this.dataSource.query(
        `UPDATE scheduled_job SET status = 'PENDING', run_at = $2, locked_until = NULL, last_error = $3, updated_at = now() WHERE id = $1 AND status = 'RUNNING' AND attempts = $4`,
        [job.id, retryAt, message.slice(0, 1000), job.attempts],
      );
    }
  }

  /** Marks the job DEAD (if this pass still owns it) and parks it, in one transaction. */
  private async park(job: ClaimedJob, error: unknown): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // The job's creation stands for its first failure, which is not recorded.
      const owned = await returningRows<{ firstFailedAt: Date }>(
        manager,
        `UPDATE scheduled_job SET status = 'DEAD', locked_until = NULL, last_error = $2, updated_at = now() WHERE id = $1 AND status = 'RUNNING' AND attempts = $3 RETURNING created_at AS "firstFailedAt"`,
        [job.id, ((error as Error).message ?? String(error)).slice(0, 1000), job.attempts],
      );
      if (owned.length === 0) return;
      const platformId = (job.payload as { platformId?: unknown } | null)?.platformId;
      await this.deadLetters.park(
        {
          source: 'scheduler',
          consumer: job.kind,
          messageId: job.id,
          subject: job.kind,
          platformId: typeof platformId === 'string' ? platformId : null,
          payload: job.payload,
          error,
          attempts: job.attempts,
          firstFailedAt: owned[0].firstFailedAt,
        },
        manager,
      );
    });
  }
}
