import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { amountFromColumn, amountToColumn, returningRows } from '@paykit/persistence';

/** An invitation as stored (table `invitation`). EXPIRED is read from `expiresAt`, never stored. */
export interface InvitationEntity {
  code: string;
  platformId: string;
  inviterUma: string;
  inviterCustomerId: string;
  inviteeUma: string | null;
  firstName: string | null;
  amountToSend: bigint | null;
  amountCurrency: string | null;
  status: 'PENDING' | 'CLAIMED' | 'CANCELLED';
  createdAt: Date;
  expiresAt: Date;
  claimedAt: Date | null;
}

interface InvitationRow {
  code: string;
  platform_id: string;
  inviter_uma: string;
  inviter_customer_id: string;
  invitee_uma: string | null;
  first_name: string | null;
  amount_to_send: string | null;
  amount_currency: string | null;
  status: InvitationEntity['status'];
  created_at: Date | string;
  expires_at: Date | string;
  claimed_at: Date | string | null;
}

function toEntity(row: InvitationRow): InvitationEntity {
  return {
    code: row.code,
    platformId: row.platform_id,
    inviterUma: row.inviter_uma,
    inviterCustomerId: row.inviter_customer_id,
    inviteeUma: row.invitee_uma,
    firstName: row.first_name,
    amountToSend: row.amount_to_send === null ? null : amountFromColumn(row.amount_to_send),
    amountCurrency: row.amount_currency,
    status: row.status,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    claimedAt: row.claimed_at === null ? null : new Date(row.claimed_at),
  };
}

/** Invitations: scoped by the inviting platform, except a claim, which finds a code wherever it was issued. */
@Injectable()
export class InvitationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(invitation: Omit<InvitationEntity, 'status' | 'claimedAt' | 'inviteeUma'>): Promise<InvitationEntity> {
    const rows = await returningRows<InvitationRow>(
      this.dataSource.manager,
      `INSERT INTO invitation (code, platform_id, inviter_uma, inviter_customer_id, first_name, amount_to_send, amount_currency, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [
        invitation.code,
        invitation.platformId,
        invitation.inviterUma,
        invitation.inviterCustomerId,
        invitation.firstName,
        invitation.amountToSend === null ? null : amountToColumn(invitation.amountToSend),
        invitation.amountCurrency,
        invitation.createdAt,
        invitation.expiresAt,
      ],
    );
    return toEntity(rows[0]);
  }

  async findOwn(platformId: string, code: string): Promise<InvitationEntity | undefined> {
    const rows = await this.dataSource.query<InvitationRow[]>(`SELECT * FROM invitation WHERE platform_id = $1 AND code = $2`, [platformId, code]);
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  async findAnywhere(code: string): Promise<InvitationEntity | undefined> {
    const rows = await this.dataSource.query<InvitationRow[]>(`SELECT * FROM invitation WHERE code = $1`, [code]);
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /** PENDING and unexpired -> CLAIMED, once. */
  async claim(manager: EntityManager, code: string, inviteeUma: string, now: Date): Promise<InvitationEntity | undefined> {
    const rows = await returningRows<InvitationRow>(
      manager,
      `UPDATE invitation SET status = 'CLAIMED', invitee_uma = $2, claimed_at = $3 WHERE code = $1 AND status = 'PENDING' AND expires_at > $3 RETURNING *`,
      [code, inviteeUma, now],
    );
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /** PENDING -> CANCELLED, once. */
  async cancel(platformId: string, code: string, now: Date): Promise<InvitationEntity | undefined> {
    const rows = await returningRows<InvitationRow>(
      this.dataSource.manager,
      `UPDATE invitation SET status = 'CANCELLED', cancelled_at = $3 WHERE platform_id = $1 AND code = $2 AND status = 'PENDING' RETURNING *`,
      [platformId, code, now],
    );
    return rows[0] ? toEntity(rows[0]) : undefined;
  }
}
