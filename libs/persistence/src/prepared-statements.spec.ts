import { Pool } from 'pg';
import { preparedStatement, PreparingClient } from './prepared-statements';

/** A client that never connects: each query waits in pg's queue (its internals: this spec fails if they change). */
function unconnectedClient(): { client: PreparingClient; queued: () => unknown } {
  const client = new PreparingClient({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
  return { client, queued: (): unknown => Reflect.get(client, '_queryQueue') };
}

describe(PreparingClient.name, () => {
  it('is the class pg-pool builds its connections from', () => {
    const built: unknown = Reflect.get(new Pool({ Client: PreparingClient }), 'Client');
    expect(built).toBe(PreparingClient);
  });

  describe('query', () => {
    it('hands pg a marked statement as a named query, which pg prepares once per connection', () => {
      const { client, queued } = unconnectedClient();
      const text = preparedStatement('SELECT $1::int AS marked /* prepared-statements unit spec */');
      void client.query(text, [1]).catch(() => undefined);
      expect(queued()).toEqual([expect.objectContaining({ name: expect.stringMatching(/^paykit_\d+$/), text, values: [1] })]);
    });

    it('hands pg an unmarked statement, and every other call shape, unchanged', () => {
      const { client, queued } = unconnectedClient();
      void client.query('SELECT $1::int AS unmarked', [2]).catch(() => undefined);
      void client.query({ text: 'SELECT 3' }).catch(() => undefined);
      expect(queued()).toEqual([
        expect.objectContaining({ name: undefined, text: 'SELECT $1::int AS unmarked', values: [2] }),
        expect.objectContaining({ name: undefined, text: 'SELECT 3' }),
      ]);
    });
  });

  describe('a replanned statement', () => {
    afterEach(() => jest.restoreAllMocks());

    it('keeps one preparation on a connection until it is as old as its limit, then prepares it under a new name and deallocates the old one behind its queued queries', () => {
      const { client, queued } = unconnectedClient();
      const text = preparedStatement('SELECT $1::int AS replanned /* prepared-statements unit spec */', { replanAfterMs: 5_000 });
      const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
      void client.query(text, [1]).catch(() => undefined);
      now.mockReturnValue(1_004_999);
      void client.query(text, [2]).catch(() => undefined);
      now.mockReturnValue(1_005_000);
      void client.query(text, [3]).catch(() => undefined);
      const [first, second, deallocation, third] = queued() as Array<{ name?: string; text: string }>;
      expect(second.name).toBe(first.name);
      expect(deallocation).toEqual(expect.objectContaining({ name: undefined, text: `DEALLOCATE ${first.name}` }));
      expect(third).toEqual(expect.objectContaining({ text, values: [3] }));
      expect(third.name).toMatch(/^paykit_\d+_\d+$/);
      expect(third.name).not.toBe(first.name);
    });
  });
});
