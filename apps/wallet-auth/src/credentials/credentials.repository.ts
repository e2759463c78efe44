import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { EntityInsert, preparedStatement, returningRows } from '@paykit/persistence';
import { AuthCredentialEntity } from './entities/auth-credential.entity';

/** Every query takes the platform first: another platform's credential does not exist here. */
@Injectable()
export class CredentialsRepository {
  private readonly newRows: EntityInsert<AuthCredentialEntity>;
  private readonly insertManySql: string;

  constructor(private readonly dataSource: DataSource) {
    this.newRows = new EntityInsert(dataSource, AuthCredentialEntity);
    this.insertManySql = preparedStatement(this.newRows.manySql);
  }

  findActive(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<AuthCredentialEntity | null> {
    return manager.findOne(AuthCredentialEntity, { where: { platformId, id, status: 'ACTIVE' } });
  }

  listActive(platformId: string, accountId: string, manager: EntityManager = this.dataSource.manager): Promise<AuthCredentialEntity[]> {
    return manager.find(AuthCredentialEntity, { where: { platformId, accountId, status: 'ACTIVE' }, order: { id: 'ASC' } });
  }

  countActive(platformId: string, accountId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    return manager.count(AuthCredentialEntity, { where: { platformId, accountId, status: 'ACTIVE' } });
  }

  /** Holds the credential's row for the rest of the transaction (its challenges are issued one at a time). */
  async lock(manager: EntityManager, platformId: string, id: string): Promise<void> {
    await manager.query(`SELECT id FROM auth_credential WHERE platform_id = $1 AND id = $2 FOR UPDATE`, [platformId, id]);
  }

  async insert(manager: EntityManager, credential: AuthCredentialEntity): Promise<void> {
    await manager.insert(AuthCredentialEntity, credential);
  }

  /** Many credentials in one statement (a wallet provisioning batch's). */
  async insertMany(manager: EntityManager, credentials: AuthCredentialEntity[]): Promise<void> {
    if (credentials.length > 0) await manager.query(this.insertManySql, [this.newRows.records(credentials)]);
  }

  /** ACTIVE to REVOKED, once; false when it was not active any more. */
  async revoke(manager: EntityManager, platformId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `UPDATE auth_credential SET status = 'REVOKED', revoked_at = now(), updated_at = now()
        WHERE platform_id = $1 AND id = $2 AND status = 'ACTIVE' RETURNING id`,
      [platformId, id],
    );
    return rows.length === 1;
  }

  /** Moves the passkey counter forward only from the value the assertion was checked against. */
  async advancePasskeyCounter(manager: EntityManager, platformId: string, id: string, from: string, to: number): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `UPDATE auth_credential SET passkey_counter = $4, updated_at = now()
        WHERE platform_id = $1 AND id = $2 AND status = 'ACTIVE' AND passkey_counter = $3 RETURNING id`,
      [platformId, id, from, to],
    );
    return rows.length === 1;
  }

  listTiedToCustomer(platformId: string, customerId: string, manager: EntityManager = this.dataSource.manager): Promise<AuthCredentialEntity[]> {
    return manager.find(AuthCredentialEntity, { where: { platformId, tiedCustomerId: customerId, status: 'ACTIVE', type: 'EMAIL_OTP' }, order: { id: 'ASC' } });
  }

  /** Syncs the email (and nickname) of the EMAIL_OTP credentials tied to a customer; returns those changed. */
  async syncTiedEmail(manager: EntityManager, platformId: string, customerId: string, email: string): Promise<string[]> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `UPDATE auth_credential SET email = $3, nickname = $3, updated_at = now()
        WHERE platform_id = $1 AND tied_customer_id = $2 AND type = 'EMAIL_OTP' AND status = 'ACTIVE' AND email IS DISTINCT FROM $3
        RETURNING id`,
      [platformId, customerId, email],
    );
    return rows.map((row) => row.id);
  }
}
