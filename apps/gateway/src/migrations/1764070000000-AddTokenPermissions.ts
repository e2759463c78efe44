import { MigrationInterface, QueryRunner } from 'typeorm';
import { newId } from '@paykit/contracts';

/**
 * API tokens gain a public id (`Token:<uuid>`, distinct from the BasicAuth client id), a set of
 * permissions and an update time. Every token issued before this migration keeps full access.
 */
export class AddTokenPermissions1764070000000 implements MigrationInterface {
  name = 'AddTokenPermissions1764070000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_token ADD COLUMN permissions text[] NOT NULL DEFAULT '{VIEW,TRANSACT,MANAGE}'`);
    await q.query(`ALTER TABLE api_token ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`ALTER TABLE api_token ADD COLUMN public_id text`);
    const rows = (await q.query(`SELECT id FROM api_token`)) as { id: string }[];
    for (const row of rows) await q.query(`UPDATE api_token SET public_id = $1 WHERE id = $2`, [newId('Token'), row.id]);
    await q.query(`ALTER TABLE api_token ALTER COLUMN public_id SET NOT NULL`);
    await q.query(`ALTER TABLE api_token ADD CONSTRAINT uq_api_token_public_id UNIQUE (public_id)`);
    await q.query(`CREATE INDEX ix_api_token_platform_public_id ON api_token (platform_id, public_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_api_token_platform_public_id`);
    await q.query(`ALTER TABLE api_token DROP COLUMN public_id`);
    await q.query(`ALTER TABLE api_token DROP COLUMN updated_at`);
    await q.query(`ALTER TABLE api_token DROP COLUMN permissions`);
  }
}
