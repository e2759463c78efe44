import { MigrationInterface, QueryRunner } from 'typeorm';

/** A platform may turn embedded wallets off; existing platforms keep them (the default). */
export class PlatformEmbeddedWallets1732500000000 implements MigrationInterface {
  name = 'PlatformEmbeddedWallets1732500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_config ADD COLUMN embedded_wallets_enabled boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_config DROP COLUMN embedded_wallets_enabled`);
  }
}
