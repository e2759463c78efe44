import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ledger rows stay immutable, with one exception: a sandbox restore or reset replaces a platform's
 * whole state in one transaction (SandboxStateStore, libs/persistence), which marks itself with
 * `paykit.sandbox_state` = `replace` and may then delete the platform's entries and postings, all
 * of them at once. The entries it inserts back are checked by the balance trigger like any others.
 * Updates stay refused in every case.
 */
export class SandboxStateReplace1766100000000 implements MigrationInterface {
  name = 'SandboxStateReplace1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION ledger_row_is_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('paykit.sandbox_state', true) = 'replace' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME USING ERRCODE = '55000';
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION ledger_row_is_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME USING ERRCODE = '55000';
      END $$`);
  }
}
