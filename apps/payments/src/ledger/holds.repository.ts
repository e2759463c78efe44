import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { amountFromColumn, amountToColumn, returningRows } from '@paykit/persistence';
import { HoldEntity } from './entities/hold.entity';

export interface HoldRow {
  id: string;
  platform_id: string;
  account_id: string;
  currency_code: string;
  caller_key: string;
  amount: string;
  status: HoldEntity['status'];
  captured_amount: string;
  refunded_amount: string;
  resolution_key: string | null;
  reference: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  resolved_at: Date | string | null;
}

export function toHoldEntity(row: HoldRow): HoldEntity {
  return {
    id: row.id,
    platformId: row.platform_id,
    accountId: row.account_id,
    currencyCode: row.currency_code,
    callerKey: row.caller_key,
    amount: amountFromColumn(row.amount),
    status: row.status,
    capturedAmount: amountFromColumn(row.captured_amount),
    refundedAmount: amountFromColumn(row.refunded_amount),
    resolutionKey: row.resolution_key,
    reference: row.reference,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    resolvedAt: row.resolved_at === null ? null : new Date(row.resolved_at),
  };
}

export interface NewHold {
  id: string;
  platformId: string;
  accountId: string;
  currencyCode: string;
  callerKey: string;
  amount: bigint;
  reference: string | null;
}

/** Holds, always scoped by platform. State changes are conditional on the current state, so each resolves once. */
@Injectable()
export class HoldsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findById(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<HoldEntity | undefined> {
    const rows = await manager.query<HoldRow[]>(`SELECT * FROM hold WHERE platform_id = $1 AND id = $2`, [platformId, id]);
    return rows[0] ? toHoldEntity(rows[0]) : undefined;
  }

  async findByCallerKey(platformId: string, callerKey: string, manager: EntityManager = this.dataSource.manager): Promise<HoldEntity | undefined> {
    const rows = await manager.query<HoldRow[]>(`SELECT * FROM hold WHERE platform_id = $1 AND caller_key = $2`, [platformId, callerKey]);
    return rows[0] ? toHoldEntity(rows[0]) : undefined;
  }

  /** Adds a refund if the hold is captured and refunds stay within the captured amount. */
  async addRefund(manager: EntityManager, platformId: string, id: string, amount: bigint): Promise<HoldEntity | undefined> {
    const rows = await returningRows<HoldRow>(
      manager,
      `UPDATE hold SET refunded_amount = refunded_amount + $3, updated_at = now()
        WHERE platform_id = $1 AND id = $2 AND status = 'CAPTURED' AND refunded_amount + $3 <= captured_amount RETURNING *`,
      [platformId, id, amountToColumn(amount)],
    );
    return rows[0] ? toHoldEntity(rows[0]) : undefined;
  }

  async findRefund(platformId: string, callerKey: string, manager: EntityManager = this.dataSource.manager): Promise<{ holdId: string; amount: bigint } | undefined> {
    const rows = await manager.query<Array<{ hold_id: string; amount: string }>>(`SELECT hold_id, amount FROM hold_refund WHERE platform_id = $1 AND caller_key = $2`, [
      platformId,
      callerKey,
    ]);
    return rows[0] ? { holdId: rows[0].hold_id, amount: amountFromColumn(rows[0].amount) } : undefined;
  }

  async insertRefund(manager: EntityManager, refund: { id: string; platformId: string; holdId: string; callerKey: string; amount: bigint; entryId: string }): Promise<void> {
    await manager.query(`INSERT INTO hold_refund (id, platform_id, hold_id, caller_key, amount, entry_id) VALUES ($1, $2, $3, $4, $5, $6)`, [
      refund.id,
      refund.platformId,
      refund.holdId,
      refund.callerKey,
      amountToColumn(refund.amount),
      refund.entryId,
    ]);
  }

  async findCredit(
    platformId: string,
    callerKey: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ id: string; accountId: string; currency: string; amount: bigint; reference: string | null; createdAt: Date } | undefined> {
    const rows = await manager.query<Array<{ id: string; account_id: string; currency_code: string; amount: string; reference: string | null; created_at: Date | string }>>(
      `SELECT id, account_id, currency_code, amount, reference, created_at FROM account_credit WHERE platform_id = $1 AND caller_key = $2`,
      [platformId, callerKey],
    );
    const row = rows[0];
    return (
      row && {
        id: row.id,
        accountId: row.account_id,
        currency: row.currency_code,
        amount: amountFromColumn(row.amount),
        reference: row.reference,
        createdAt: new Date(row.created_at),
      }
    );
  }

  async insertCredit(
    manager: EntityManager,
    credit: { id: string; platformId: string; accountId: string; currency: string; callerKey: string; amount: bigint; reference: string | null; entryId: string },
  ): Promise<Date> {
    const rows = await returningRows<{ created_at: Date | string }>(
      manager,
      `INSERT INTO account_credit (id, platform_id, account_id, currency_code, caller_key, amount, reference, entry_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING created_at`,
      [credit.id, credit.platformId, credit.accountId, credit.currency, credit.callerKey, amountToColumn(credit.amount), credit.reference, credit.entryId],
    );
    return new Date(rows[0].created_at);
  }
}
