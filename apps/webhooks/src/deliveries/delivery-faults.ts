import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CreateSandboxFaultRequest, newId, SANDBOX_FAULT_ID_TYPE, SandboxFault } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { PlatformFlags, returningRows } from '@paykit/persistence';

interface FaultRow {
  id: string;
  status: number;
  count: number;
  remaining: number;
  created_at: Date | string;
}

const COLUMNS = 'id, status, count, remaining, created_at';

/**
 * Sandbox faults on webhook deliveries (POST /sandbox/faults, target WEBHOOK_DELIVERY): each fails
 * the platform's next `count` delivery attempts, recorded as answered `status` without sending,
 * and retried on the usual schedule. Queries take the platform first.
 */
@Injectable()
export class DeliveryFaults {
  /** Which platforms have a live fault: other platforms' attempts cost a map lookup, no statement. */
  private readonly live = new PlatformFlags((platformId) => this.hasActive(platformId));

  constructor(private readonly dataSource: DataSource) {}

  async create(platformId: string, request: CreateSandboxFaultRequest): Promise<SandboxFault> {
    if (request.target !== 'WEBHOOK_DELIVERY' || request.effect !== 'ERROR') {
      throw ServiceError.invalidField('effect', 'a WEBHOOK_DELIVERY fault takes the ERROR effect only', { enum: ['ERROR'] });
    }
    const rows = await returningRows<FaultRow>(
      this.dataSource,
      `INSERT INTO webhook_delivery_fault (id, platform_id, status, count, remaining) VALUES ($1, $2, $3, $4, $4) RETURNING ${COLUMNS}`,
      [newId(SANDBOX_FAULT_ID_TYPE), platformId, request.status ?? 503, request.count],
    );
    this.live.set(platformId, true);
    return toFault(rows[0]);
  }

  async list(platformId: string): Promise<SandboxFault[]> {
    const rows = await this.dataSource.query<FaultRow[]>(`SELECT ${COLUMNS} FROM webhook_delivery_fault WHERE platform_id = $1 ORDER BY id`, [platformId]);
    return rows.map(toFault);
  }

  async delete(platformId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(this.dataSource, `DELETE FROM webhook_delivery_fault WHERE platform_id = $1 AND id = $2 RETURNING id`, [platformId, id]);
    return rows.length > 0;
  }

  /**
   * Takes one attempt from the platform's oldest live fault: the status the attempt is to record,
   * or undefined. One statement, `remaining` re-checked under the row lock, so a fault of N fails
   * exactly N attempts across workers and replicas.
   */
  async take(platformId: string): Promise<{ id: string; status: number } | undefined> {
    if (!(await this.live.isOn(platformId))) return undefined;
    const rows = await returningRows<FaultRow>(
      this.dataSource,
      `UPDATE webhook_delivery_fault SET remaining = remaining - 1
        WHERE id = (SELECT id FROM webhook_delivery_fault WHERE platform_id = $1 AND remaining > 0 ORDER BY id LIMIT 1 FOR UPDATE)
          AND remaining > 0
        RETURNING ${COLUMNS}`,
      [platformId],
    );
    if (rows.length === 0) {
      this.live.set(platformId, false);
      return undefined;
    }
    return { id: rows[0].id, status: rows[0].status };
  }

  private async hasActive(platformId: string): Promise<boolean> {
    const rows = await this.dataSource.query<{ active: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM webhook_delivery_fault WHERE platform_id = $1 AND remaining > 0) AS active`, [
      platformId,
    ]);
    return rows[0]?.active === true;
  }
}

function toFault(row: FaultRow): SandboxFault {
  return {
    id: row.id,
    target: 'WEBHOOK_DELIVERY',
    effect: 'ERROR',
    status: row.status,
    count: row.count,
    remaining: row.remaining,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
