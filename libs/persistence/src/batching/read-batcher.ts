export interface ReadBatcherOptions<K, R> {
  /** Reads every key in one statement; answers the row of each key (undefined when there is none), in order. */
  read: (keys: K[]) => Promise<Array<R | undefined>>;
  /** Keys with the same text are one read: their callers share its row. */
  keyOf: (key: K) => string;
  /** Readers of one key after the first get this copy of its row (each may then change its own); without it they share the row. */
  copy?: (row: R) => R;
  /** Keys per statement at most. */
  maxBatch?: number;
  /** Statements at once: while they run, the next batch fills. */
  maxInFlight?: number;
}

interface Waiting<K, R> {
  key: K;
  waiters: Array<{ done: (row: R | undefined) => void; failed: (error: unknown) => void }>;
}

/**
 * Batched reads outside any transaction, for the hottest lookups: the reads that arrive during
 * one turn of the event loop, or while earlier batches are being read, share one statement, and
 * reads of the same key share its row. On this kind of machine a statement costs the database and
 * the socket far more than the row does. Callers of one key share the raw row unless `copy` is given.
 */
export class ReadBatcher<K, R> {
  private waiting = new Map<string, Waiting<K, R>>();
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;

  constructor(private readonly options: ReadBatcherOptions<K, R>) {
    this.maxBatch = options.maxBatch ?? 100;
    this.maxInFlight = options.maxInFlight ?? 2;
  }

  load(key: K): Promise<R | undefined> {
    return new Promise((done, failed) => {
      const text = this.options.keyOf(key);
      const entry = this.waiting.get(text);
      if (entry) entry.waiters.push({ done, failed });
      else this.waiting.set(text, { key, waiters: [{ done, failed }] });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.waiting.size === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const batch: Array<Waiting<K, R>> = [];
      for (const [text, entry] of this.waiting) {
        if (batch.length === this.maxBatch) break;
        batch.push(entry);
        this.waiting.delete(text);
      }
      if (batch.length === 0) return;
      this.inFlight += 1;
      void this.readBatch(batch).finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
      this.schedule();
    });
  }

  private async readBatch(batch: Array<Waiting<K, R>>): Promise<void> {
    let rows: Array<R | undefined>;
    try {
      rows = await this.options.read(batch.map((entry) => entry.key));
    } catch (error) {
      for (const entry of batch) for (const waiter of entry.waiters) waiter.failed(error);
      return;
    }
    const copy = this.options.copy;
    batch.forEach((entry, index) => {
      const row = rows[index];
      entry.waiters.forEach((waiter, nth) => waiter.done(nth > 0 && row !== undefined && copy ? copy(row) : row));
    });
  }
}
