import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SandboxSnapshot } from '@paykit/contracts';
import { returningRows } from '@paykit/persistence';

interface SnapshotRow {
  name: string;
  row_counts: Record<string, number>;
  created_at: Date | string;
}

const toSnapshot = (row: SnapshotRow): SandboxSnapshot => ({ name: row.name, createdAt: new Date(row.created_at).toISOString(), rows: row.row_counts });

/** Saved snapshots; every method takes the platform (tenant) first and filters by it. */
@Injectable()
export class SandboxSnapshotsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async save(platformId: string, name: string, state: string, rowCounts: Record<string, number>): Promise<SandboxSnapshot> {
    const rows = await returningRows<SnapshotRow>(
      this.dataSource,
      `INSERT INTO sandbox_snapshot (platform_id, name, state, row_counts) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (platform_id, name) DO UPDATE SET state = EXCLUDED.state, row_counts = EXCLUDED.row_counts, created_at = now()
       RETURNING name, row_counts, created_at`,
      [platformId, name, state, JSON.stringify(rowCounts)],
    );
    return toSnapshot(rows[0]);
  }

  async list(platformId: string): Promise<SandboxSnapshot[]> {
    const rows = await this.dataSource.query<SnapshotRow[]>(`SELECT name, row_counts, created_at FROM sandbox_snapshot WHERE platform_id = $1 ORDER BY name`, [platformId]);
    return rows.map(toSnapshot);
  }

  async find(platformId: string, name: string): Promise<{ snapshot: SandboxSnapshot; state: string } | undefined> {
    const [row] = await this.dataSource.query<(SnapshotRow & { state: string })[]>(
      `SELECT name, state, row_counts, created_at FROM sandbox_snapshot WHERE platform_id = $1 AND name = $2`,
      [platformId, name],
    );
    return row ? { snapshot: toSnapshot(row), state: row.state } : undefined;
  }

  async delete(platformId: string, name: string): Promise<boolean> {
    return (await returningRows(this.dataSource, `DELETE FROM sandbox_snapshot WHERE platform_id = $1 AND name = $2 RETURNING name`, [platformId, name])).length > 0;
  }
}
