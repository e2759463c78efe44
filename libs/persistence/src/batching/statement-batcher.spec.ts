import { StatementBatcher, StatementBatcherOptions } from './statement-batcher';

interface Call {
  batch: string[];
  finish: (results?: string[]) => void;
  fail: (error: Error) => void;
}

/** A batcher whose statements the test finishes by hand: item `x` answers `x!` unless told otherwise. */
function harness(options: Partial<StatementBatcherOptions<string, string>> = {}) {
  const calls: Call[] = [];
  const batcher = new StatementBatcher<string, string>({
    maxInFlight: 1,
    maxBatch: 10,
    keyOf: (item) => item.split('#')[0],
    run: (batch) =>
      new Promise<string[]>((resolve, reject) => {
        calls.push({ batch, finish: (results) => resolve(results ?? batch.map((item) => `${item}!`)), fail: reject });
      }),
    ...options,
  });
  return { batcher, calls, batches: () => calls.map((call) => call.batch) };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe(StatementBatcher.name, () => {
  afterEach(() => jest.useRealTimers());

  describe('add', () => {
    it('sends what is added in one turn as one batch, and what is added while it runs as the next', async () => {
      const { batcher, calls, batches } = harness();
      const first = ['a', 'b'].map((item) => batcher.add(item));
      await turn();
      const second = ['c', 'd', 'e'].map((item) => batcher.add(item));
      await turn();
      expect(batches()).toEqual([['a', 'b']]);
      calls[0].finish();
      expect(await Promise.all(first)).toEqual(['a!', 'b!']);
      await turn();
      expect(batches()).toEqual([
        ['a', 'b'],
        ['c', 'd', 'e'],
      ]);
      calls[1].finish();
      expect(await Promise.all(second)).toEqual(['c!', 'd!', 'e!']);
    });

    it('keeps to its batch size and statements in flight, oldest first', async () => {
      const { batcher, calls, batches } = harness({ maxInFlight: 2, maxBatch: 2 });
      const results = ['a', 'b', 'c', 'd', 'e'].map((item) => batcher.add(item));
      await turn();
      await turn();
      expect(batches()).toEqual([
        ['a', 'b'],
        ['c', 'd'],
      ]);
      calls[0].finish();
      await turn();
      await turn();
      expect(batches()).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
      calls[1].finish();
      calls[2].finish();
      expect(await Promise.all(results)).toEqual(['a!', 'b!', 'c!', 'd!', 'e!']);
    });

    it('never puts two items with one key in a batch', async () => {
      const { batcher, calls, batches } = harness();
      const results = ['k#1', 'x', 'k#2'].map((item) => batcher.add(item));
      await turn();
      expect(batches()).toEqual([['k#1', 'x']]);
      calls[0].finish();
      await turn();
      await turn();
      expect(batches()).toEqual([['k#1', 'x'], ['k#2']]);
      calls[1].finish();
      expect(await Promise.all(results)).toEqual(['k#1!', 'x!', 'k#2!']);
    });

    it('with a gathering time, waits that long for items added over several turns, unless a full batch is waiting', async () => {
      // The gathering time passes on a fake clock; turns of the event loop stay real.
      jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
      const { batcher, calls, batches } = harness({ gatherMs: 30, maxBatch: 3 });
      const gathered = [batcher.add('a')];
      await turn();
      gathered.push(batcher.add('b'));
      await turn();
      expect(batches()).toEqual([]);
      jest.advanceTimersByTime(29);
      await turn();
      expect(batches()).toEqual([]);
      jest.advanceTimersByTime(1);
      await turn();
      expect(batches()).toEqual([['a', 'b']]);
      calls[0].finish();
      expect(await Promise.all(gathered)).toEqual(['a!', 'b!']);
      const full = ['c', 'd', 'e'].map((item) => batcher.add(item));
      await turn();
      expect(batches()).toEqual([
        ['a', 'b'],
        ['c', 'd', 'e'],
      ]);
      calls[1].finish();
      expect(await Promise.all(full)).toEqual(['c!', 'd!', 'e!']);
    });

    it('tries each item of a failed batch alone, so only the one refused alone fails', async () => {
      const { batcher, calls, batches } = harness();
      const results = ['a', 'b'].map((item) => batcher.add(item).catch((error: Error) => `failed: ${error.message}`));
      await turn();
      calls[0].fail(new Error('deadlock'));
      await turn();
      expect(batches().slice(1)).toEqual([['a'], ['b']]);
      calls[1].finish();
      calls[2].fail(new Error('b alone'));
      expect(await Promise.all(results)).toEqual(['a!', 'failed: b alone']);
    });
  });

  describe('close', () => {
    it('fails what was not sent yet and waits for the batch running', async () => {
      const { batcher, calls } = harness();
      const running = batcher.add('a');
      await turn();
      const waiting = batcher.add('b');
      let closed = false;
      const closing = batcher.close(new Error('shutting down')).then(() => (closed = true));
      await expect(waiting).rejects.toThrow('shutting down');
      await turn();
      expect(closed).toBe(false);
      calls[0].finish();
      await closing;
      expect(await running).toBe('a!');
    });
  });
});

describe(`${StatementBatcher.name} with one statement in flight (as the webhooks service runs it)`, () => {
  const batcherOf = (run: (items: string[]) => Promise<string[]>, maxBatch = 10) => {
    const batches: string[][] = [];
    const batcher = new StatementBatcher<string, string>({
      run: (items) => {
        batches.push(items);
        return run(items);
      },
      keyOf: (item) => item.split('#')[0],
      maxBatch,
      maxInFlight: 1,
    });
    return { batcher, batches };
  };
  const upper = async (items: string[]) => items.map((item) => item.toUpperCase());

  describe('add', () => {
    it('sends what is added together as one batch and answers each caller with its own result', async () => {
      const { batcher, batches } = batcherOf(upper);
      await expect(Promise.all(['a', 'b', 'c'].map((item) => batcher.add(item)))).resolves.toEqual(['A', 'B', 'C']);
      expect(batches).toEqual([['a', 'b', 'c']]);
    });

    it('keeps batches under the size limit, in arrival order', async () => {
      const { batcher, batches } = batcherOf(upper, 2);
      await Promise.all(['a', 'b', 'c', 'd', 'e'].map((item) => batcher.add(item)));
      expect(batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    });

    it('never puts two items with the same key in one batch', async () => {
      const { batcher, batches } = batcherOf(upper);
      await Promise.all(['a#1', 'a#2', 'b'].map((item) => batcher.add(item)));
      expect(batches).toEqual([['a#1', 'b'], ['a#2']]);
    });

    it('tries each item of a failed batch alone, so only the refused one fails', async () => {
      const { batcher, batches } = batcherOf(async (items) => {
        if (items.includes('bad')) throw new Error('refused');
        return upper(items);
      });
      const results = await Promise.allSettled(['a', 'bad', 'b'].map((item) => batcher.add(item)));
      expect(results).toEqual([
        { status: 'fulfilled', value: 'A' },
        { status: 'rejected', reason: new Error('refused') },
        { status: 'fulfilled', value: 'B' },
      ]);
      expect(batches).toEqual([['a', 'bad', 'b'], ['a'], ['bad'], ['b']]);
    });
  });

  describe('close', () => {
    it('fails what was not sent yet and waits for the batch running', async () => {
      let finish!: () => void;
      const { batcher } = batcherOf((items) => new Promise((resolve) => (finish = () => resolve(items))), 1);
      const first = batcher.add('a');
      const second = batcher.add('b');
      await new Promise((resolve) => setImmediate(resolve));
      const closed = batcher.close(new Error('stopping'));
      await expect(second).rejects.toThrow('stopping');
      finish();
      await closed;
      await expect(first).resolves.toBe('a');
    });
  });
});
