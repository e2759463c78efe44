import { ReadBatcher } from './read-batcher';

describe('ReadBatcher', () => {
  const table = new Map([
    ['a', { name: 'A' }],
    ['b', { name: 'B' }],
  ]);

  function batcher(options: { maxBatch?: number; fail?: boolean } = {}) {
    const statements: string[][] = [];
    const reads = new ReadBatcher<string, { name: string }>({
      keyOf: (key) => key,
      maxBatch: options.maxBatch,
      read: async (keys) => {
        statements.push(keys);
        if (options.fail) throw new Error('database down');
        return keys.map((key) => table.get(key));
      },
    });
    return { reads, statements };
  }

  it('reads what arrives together in one statement, each caller getting its own key', async () => {
    const { reads, statements } = batcher();
    const rows = await Promise.all(['a', 'b', 'missing'].map((key) => reads.load(key)));
    expect(rows).toEqual([{ name: 'A' }, { name: 'B' }, undefined]);
    expect(statements).toEqual([['a', 'b', 'missing']]);
  });

  it('reads a key asked for twice once', async () => {
    const { reads, statements } = batcher();
    const [first, second] = await Promise.all([reads.load('a'), reads.load('a')]);
    expect(first).toEqual({ name: 'A' });
    expect(second).toBe(first);
    expect(statements).toEqual([['a']]);
  });

  it('splits more keys than one statement takes', async () => {
    const { reads, statements } = batcher({ maxBatch: 2 });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((key) => reads.load(key)));
    expect(statements.flat().sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(Math.max(...statements.map((keys) => keys.length))).toBe(2);
  });

  it('fails every caller of a failed statement, and reads again afterwards', async () => {
    const { reads } = batcher({ fail: true });
    await expect(Promise.all([reads.load('a'), reads.load('b')])).rejects.toThrow('database down');
    await expect(reads.load('a')).rejects.toThrow('database down');
  });
});
