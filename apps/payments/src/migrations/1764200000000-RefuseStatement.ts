import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `refuse_statement(code, detail)` raises, undoing the whole statement it runs in: how a statement
 * of several changes (an execution's quote, source leg, transaction, event and next step) refuses
 * when one guarded change found its guard false, without a transaction around it. VOLATILE, so it
 * is only ever called where the statement reaches it.
 */
export class RefuseStatement1764200000000 implements MigrationInterface {
  name = 'RefuseStatement1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION refuse_statement(code text, detail text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = code, DETAIL = coalesce(detail, '');
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION refuse_statement(text, text)`);
  }
}
