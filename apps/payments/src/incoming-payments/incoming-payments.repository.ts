import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { returningRows } from '@paykit/persistence';

export type DecisionStatus = 'AWAITING' | 'APPROVED' | 'REJECTED' | 'TIMED_OUT';

export interface PaymentDecision {
  transactionId: string;
  platformId: string;
  status: DecisionStatus;
  decideBy: Date;
  requestedFields: Array<{ name: string; mandatory: boolean }>;
}

interface DecisionRow {
  transaction_id: string;
  platform_id: string;
  status: DecisionStatus;
  decide_by: Date | string;
  requested_fields: PaymentDecision['requestedFields'] | string;
}

function toDecision(row: DecisionRow): PaymentDecision {
  return {
    transactionId: row.transaction_id,
    platformId: row.platform_id,
    status: row.status,
    decideBy: new Date(row.decide_by),
    requestedFields: typeof row.requested_fields === 'string' ? (JSON.parse(row.requested_fields) as PaymentDecision['requestedFields']) : row.requested_fields,
  };
}

/** The platform's pending decisions on transactions, always scoped by platform; each is taken once. */
@Injectable()
export class IncomingPaymentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, decision: Omit<PaymentDecision, 'status'>): Promise<void> {
    await manager.query(`INSERT INTO payment_decision (transaction_id, platform_id, decide_by, requested_fields) VALUES ($1, $2, $3, $4::jsonb)`, [
      decision.transactionId,
      decision.platformId,
      decision.decideBy,
      JSON.stringify(decision.requestedFields),
    ]);
  }

  async find(platformId: string, transactionId: string, manager: EntityManager = this.dataSource.manager): Promise<PaymentDecision | undefined> {
    const rows = await manager.query<DecisionRow[]>(`SELECT * FROM payment_decision WHERE platform_id = $1 AND transaction_id = $2`, [platformId, transactionId]);
    return rows[0] ? toDecision(rows[0]) : undefined;
  }

  /**
   * AWAITING -> `to`, the one conditional update that makes a decision final: of an approval, a
   * rejection and the deadline racing, exactly one applies. A platform decision must come before
   * the deadline; the deadline's own decision only after it.
   */
  async decide(
    manager: EntityManager,
    platformId: string,
    transactionId: string,
    to: Exclude<DecisionStatus, 'AWAITING'>,
    now: Date,
    details: { receiverCustomerInfo?: Record<string, unknown>; reason?: string } = {},
  ): Promise<PaymentDecision | undefined> {
    const rows = await returningRows<DecisionRow>(
      manager,
      `UPDATE payment_decision SET status = $3, decided_at = $4, receiver_customer_info = $5::jsonb, reason = $6
        WHERE platform_id = $1 AND transaction_id = $2 AND status = 'AWAITING' AND (CASE WHEN $3 = 'TIMED_OUT' THEN decide_by <= $4 ELSE decide_by > $4 END)
        RETURNING *`,
      [platformId, transactionId, to, now, details.receiverCustomerInfo ? JSON.stringify(details.receiverCustomerInfo) : null, details.reason ?? null],
    );
    return rows[0] ? toDecision(rows[0]) : undefined;
  }
}
