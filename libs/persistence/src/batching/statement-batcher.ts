export interface StatementBatcherOptions<T, R> {
  /** Runs one statement for the whole batch and answers one result per item, in order. */
  run: (items: T[]) => Promise<R[]>;
  /** Items with the same key never share a batch (a statement may touch a row only once). */
  keyOf: (item: T) => string;
  maxBatch: number;
  /** Statements at once: the next batch fills while earlier ones run. */
  maxInFlight: number;
  /**
   * How long a batch's first item waits for company before the statement goes out (unset: to the
   * end of the current turn). For work off the request path, where a statement's fixed cost
   * (parse, plan, commit) matters more than a few milliseconds.
   */
  gatherMs?: number;
}

interface Queued<T, R> {
  item: T;
  done: (result: R) => void;
  failed: (error: unknown) => void;
}

/**
 * Group commit: what is added during the same I/O callbacks, and while earlier statements
 * run, goes out as one statement, so many items cost one round trip and one commit. Under
 * light load an item goes out alone on the next turn of the event loop, or after `gatherMs`
 * with whatever joined it meanwhile. Each caller gets its
 * own result or error: a batch that fails as a whole (nothing of it committed) is tried item
 * by item, so the item the database refuses fails alone.
 */
export class StatementBatcher<T, R> {
  private queued: Array<Queued<T, R>> = [];
  private scheduled = false;
  /** The timer of a batch gathering items (`gatherMs`). */
  private gathering?: NodeJS.Timeout;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: StatementBatcherOptions<T, R>) {}

  add(item: T): Promise<R> {
    return new Promise<R>((done, failed) => {
      this.queued.push({ item, done, failed });
      this.schedule();
    });
  }

  /** Fails what has not been sent yet and waits for the statements running (shutdown). */
  async close(reason: Error): Promise<void> {
    if (this.gathering) {
      clearTimeout(this.gathering);
      this.gathering = undefined;
      this.scheduled = false;
    }
    const refused = this.queued;
    this.queued = [];
    for (const entry of refused) entry.failed(reason);
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(): void {
    if (this.inFlight.size >= this.options.maxInFlight || this.queued.length === 0) return;
    const full = this.options.gatherMs === undefined || this.queued.length >= this.options.maxBatch;
    if (this.scheduled) {
      // A full batch need not wait out the gathering time.
      if (full && this.gathering) {
        clearTimeout(this.gathering);
        this.gathering = undefined;
        setImmediate(this.sendNext);
      }
      return;
    }
    this.scheduled = true;
    if (full) setImmediate(this.sendNext);
    else this.gathering = setTimeout(this.sendNext, this.options.gatherMs);
  }

  private readonly sendNext = (): void => {
    this.scheduled = false;
    this.gathering = undefined;
    const batch = this.take();
    if (batch.length === 0) return;
    const running = this.send(batch).finally(() => {
      this.inFlight.delete(running);
      this.schedule();
    });
    this.inFlight.add(running);
    this.schedule();
  };

  /** The oldest queued items, up to the batch size, one per key; the rest wait for the next batch. */
  private take(): Array<Queued<T, R>> {
    const batch: Array<Queued<T, R>> = [];
    const keys = new Set<string>();
    const rest: Array<Queued<T, R>> = [];
    for (const entry of this.queued) {
      const key = this.options.keyOf(entry.item);
      if (batch.length < this.options.maxBatch && !keys.has(key)) {
        batch.push(entry);
        keys.add(key);
      } else {
        rest.push(entry);
      }
    }
    this.queued = rest;
    return batch;
  }

  private async send(batch: Array<Queued<T, R>>): Promise<void> {
    let results: R[];
    try {
      results = await this.options.run(batch.map((entry) => entry.item));
    } catch (error) {
      if (batch.length === 1) batch[0].failed(error);
      else await Promise.all(batch.map((entry) => this.send([entry])));
      return;
    }
    batch.forEach((entry, i) => entry.done(results[i]));
  }
}
