import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { EntityInsert } from '@paykit/persistence';
import { WalletAccountEntity } from './entities/wallet-account.entity';

/** Every query takes the platform first: another platform's account does not exist here. */
@Injectable()
export class WalletAccountsRepository {
  /** A new account's row, for statements that insert it with its event (`Outbox.addManyWithInserts`; a repeat is left out). */
  readonly newRow: EntityInsert<WalletAccountEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.newRow = new EntityInsert(dataSource, WalletAccountEntity);
  }

  async findById(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<WalletAccountEntity | null> {
    const rows = await manager.query<WalletAccountEntity[]>(
      `SELECT id, platform_id AS "platformId", customer_id AS "customerId", wallet_email AS "walletEmail", wallet_key_sealed AS "walletKeySealed",
              created_at AS "createdAt", updated_at AS "updatedAt"
         FROM wallet_account WHERE platform_id = $1 AND id = $2`,
      [platformId, id],
    );
    return rows[0] ?? null;
  }

  /** Holds the account's row for the rest of the transaction (its credentials change one at a time). */
  async lock(manager: EntityManager, platformId: string, id: string): Promise<void> {
    await manager.query(`SELECT id FROM wallet_account WHERE platform_id = $1 AND id = $2 FOR UPDATE`, [platformId, id]);
  }

  async updateEmailOfCustomer(manager: EntityManager, platformId: string, customerId: string, email: string): Promise<void> {
    await manager.query(`UPDATE wallet_account SET wallet_email = $3, updated_at = now() WHERE platform_id = $1 AND customer_id = $2`, [platformId, customerId, email]);
  }
}
