import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { returningRows } from '@paykit/persistence';
import { WalletAccountEntity } from './entities/wallet-account.entity';

/** Every query takes the platform first: another platform's account does not exist here. */
@Injectable()
export class WalletAccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findById(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<WalletAccountEntity | null> {
    const rows = await manager.query<WalletAccountEntity[]>(
      `SELECT id, platform_id AS "platformId", customer_id AS "customerId", wallet_email AS "walletEmail", wallet_key_sealed AS "walletKeySealed",
              created_at AS "createdAt", updated_at AS "updatedAt"
         FROM wallet_account WHERE platform_id = $1 AND id = $2`,
      [platformId, id],
    );
    return rows[0] ?? null;
  }

  /** Inserts unless the account is already known (events arrive at least once); true when inserted. */
  /** Holds the account's row for the rest of the transaction (its credentials change one at a time). */
  async lock(manager: EntityManager, platformId: string, id: string): Promise<void> {
    await manager.query(`SELECT id FROM wallet_account WHERE platform_id = $1 AND id = $2 FOR UPDATE`, [platformId, id]);
  }

  async insertIfAbsent(manager: EntityManager, account: WalletAccountEntity): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `INSERT INTO wallet_account (id, platform_id, customer_id, wallet_email, wallet_key_sealed, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [account.id, account.platformId, account.customerId, account.walletEmail, account.walletKeySealed, account.createdAt],
    );
    return rows.length === 1;
  }

  async updateEmailOfCustomer(manager: EntityManager, platformId: string, customerId: string, email: string): Promise<void> {
    await manager.query(`UPDATE wallet_account SET wallet_email = $3, updated_at = now() WHERE platform_id = $1 AND customer_id = $2`, [platformId, customerId, email]);
  }
}
