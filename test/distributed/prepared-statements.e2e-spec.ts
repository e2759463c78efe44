import { POSTGRES_ADMIN_URL } from '@paykit/testing';
import { PreparingClient, preparedStatement } from '@paykit/persistence';

/** Distributed mode's `pg` client, against the real PostgreSQL: marked statements run prepared, the rest unnamed. */
describe('PreparingClient', () => {
  let client: PreparingClient;

  beforeAll(async () => {
    client = new PreparingClient({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
  });

  const preparedTexts = async (): Promise<string[]> => (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map((row) => row.statement);

  it('prepares a marked statement once on the connection and reuses it with other parameters', async () => {
    const text = preparedStatement('SELECT $1::int + 1 AS answer /* prepared-statements spec */');
    expect((await client.query(text, [1])).rows).toEqual([{ answer: 2 }]);
    expect((await client.query(text, [41])).rows).toEqual([{ answer: 42 }]);
    expect((await preparedTexts()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('runs an unmarked statement unnamed, and reports its errors as pg does', async () => {
    const text = 'SELECT $1::int * 2 AS doubled /* unmarked */';
    expect((await client.query(text, [21])).rows).toEqual([{ doubled: 42 }]);
    expect(await preparedTexts()).not.toContain(text);
    await expect(client.query(preparedStatement('SELECT 1 / $1::int AS broken /* prepared-statements spec */'), [0])).rejects.toMatchObject({ code: '22012' });
  });

  it('prepares a replanned statement afresh once its preparation is old, and deallocates the one it replaces', async () => {
    const text = preparedStatement('SELECT $1::int - 1 AS less /* replanned, prepared-statements spec */', { replanAfterMs: 0 });
    for (const n of [1, 2, 3]) expect((await client.query(text, [n])).rows).toEqual([{ less: n - 1 }]);
    expect((await preparedTexts()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('replans inside a transaction without failing it, and forgets a preparation the server refused instead of deallocating it', async () => {
    const text = preparedStatement('SELECT count(*)::int AS rows FROM replanned_later /* prepared-statements spec */', { replanAfterMs: 0 });
    await expect(client.query(text, [])).rejects.toMatchObject({ code: '42P01' });
    await client.query('BEGIN');
    try {
      await client.query('CREATE TEMP TABLE replanned_later (n int)');
      expect((await client.query(text, [])).rows).toEqual([{ rows: 0 }]);
      expect((await client.query(text, [])).rows).toEqual([{ rows: 0 }]);
    } finally {
      await client.query('COMMIT');
    }
    expect((await preparedTexts()).filter((statement) => statement === text)).toHaveLength(1);
  });
});
