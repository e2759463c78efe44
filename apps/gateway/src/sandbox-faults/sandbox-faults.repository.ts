import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { newId, SANDBOX_FAULT_ID_TYPE, SandboxFault, SandboxFaultEffect } from '@paykit/contracts';
import { returningRows } from '@paykit/persistence';

interface FaultRow {
  id: string;
  operation: string | null;
  path_prefix: string | null;
  effect: SandboxFaultEffect;
  status: number | null;
  delay_ms: number | null;
  count: number;
  remaining: number;
  created_at: Date | string;
}

export interface NewOperationFault {
  operation?: string;
  pathPrefix?: string;
  effect: SandboxFaultEffect;
  status?: number;
  delayMs?: number;
  count: number;
}

const COLUMNS = 'id, operation, path_prefix, effect, status, delay_ms, count, remaining, created_at';

/**
 * The gateway's sandbox faults on API operations. Every method takes the platform (tenant) first
 * and filters by it: another platform's fault does not exist here.
 */
@Injectable()
export class SandboxFaultsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(platformId: string, fault: NewOperationFault): Promise<SandboxFault> {
    const rows = await returningRows<FaultRow>(
      this.dataSource,
      `INSERT INTO sandbox_fault (id, platform_id, operation, path_prefix, effect, status, delay_ms, count, remaining)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${COLUMNS}`,
      [newId(SANDBOX_FAULT_ID_TYPE), platformId, fault.operation ?? null, fault.pathPrefix ?? null, fault.effect, fault.status ?? null, fault.delayMs ?? null, fault.count],
    );
    return toFault(rows[0]);
  }

  async list(platformId: string): Promise<SandboxFault[]> {
    const rows = await this.dataSource.query<FaultRow[]>(`SELECT ${COLUMNS} FROM sandbox_fault WHERE platform_id = $1 ORDER BY id`, [platformId]);
    return rows.map(toFault);
  }

  async delete(platformId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(this.dataSource, `DELETE FROM sandbox_fault WHERE platform_id = $1 AND id = $2 RETURNING id`, [platformId, id]);
    return rows.length > 0;
  }

  async hasActive(platformId: string): Promise<boolean> {
    const rows = await this.dataSource.query<{ active: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM sandbox_fault WHERE platform_id = $1 AND remaining > 0) AS active`, [platformId]);
    return rows[0]?.active === true;
  }

  /**
   * Takes one call from the oldest live fault of the platform that matches the call (its operation,
   * or a prefix of its path), in one statement: the row lock and the re-checked `remaining > 0` make
   * a fault of N take exactly N calls, however many arrive together or on however many replicas.
   */
  async take(platformId: string, operation: string, path: string): Promise<SandboxFault | undefined> {
    const rows = await returningRows<FaultRow>(
      this.dataSource,
      `UPDATE sandbox_fault SET remaining = remaining - 1
        WHERE id = (SELECT id FROM sandbox_fault
                     WHERE platform_id = $1 AND remaining > 0
                       AND (operation = $2 OR left($3, length(path_prefix)) = path_prefix)
                     ORDER BY id LIMIT 1 FOR UPDATE)
          AND remaining > 0
        RETURNING ${COLUMNS}`,
      [platformId, operation, path],
    );
    return rows[0] ? toFault(rows[0]) : undefined;
  }
}

function toFault(row: FaultRow): SandboxFault {
  return {
    id: row.id,
    target: 'OPERATION',
    ...(row.operation !== null ? { operation: row.operation } : {}),
    ...(row.path_prefix !== null ? { pathPrefix: row.path_prefix } : {}),
    effect: row.effect,
    ...(row.status !== null ? { status: row.status } : {}),
    ...(row.delay_ms !== null ? { delayMs: row.delay_ms } : {}),
    count: row.count,
    remaining: row.remaining,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
