import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { BulkImportRowError } from '@paykit/contracts';
import { returningRows } from '@paykit/persistence';
import { BulkImportJobEntity } from './entities/bulk-import-job.entity';

/** A job's counters after a batch was added to them. */
export interface BulkImportCounters {
  processedRows: number;
  successfulRows: number;
  failedRows: number;
  errorCount: number;
}

/** Row errors per INSERT: five parameters each, well under PostgreSQL's 65,535. */
const ERRORS_PER_STATEMENT = 1000;

/** Every job query takes the platform first: another platform's job does not exist here. */
@Injectable()
export class BulkImportRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(job: BulkImportJobEntity): Promise<void> {
    await this.dataSource.manager.insert(BulkImportJobEntity, job);
  }

  findById(platformId: string, id: string): Promise<BulkImportJobEntity | null> {
    return this.dataSource.manager.findOne(BulkImportJobEntity, { where: { platformId, id } });
  }

  /** Locks the job for the rest of the transaction: it finishes once. */
  findForUpdate(manager: EntityManager, platformId: string, id: string): Promise<BulkImportJobEntity | null> {
    return manager.findOne(BulkImportJobEntity, { where: { platformId, id }, lock: { mode: 'pessimistic_write' } });
  }

  async save(manager: EntityManager, job: BulkImportJobEntity): Promise<void> {
    await manager.save(BulkImportJobEntity, job);
  }

  /** Adds a batch to the job's counters in place (batches commit concurrently) and answers the sums. */
  async addToCounters(manager: EntityManager, jobId: string, batch: Omit<BulkImportCounters, 'errorCount'> & { errors: number }): Promise<BulkImportCounters> {
    const [counters] = await returningRows<{ processed_rows: number; successful_rows: number; failed_rows: number; error_count: number }>(
      manager,
      `UPDATE bulk_import_job SET processed_rows = processed_rows + $2, successful_rows = successful_rows + $3, failed_rows = failed_rows + $4,
              error_count = error_count + $5, updated_at = now()
        WHERE id = $1 RETURNING processed_rows, successful_rows, failed_rows, error_count`,
      [jobId, batch.processedRows, batch.successfulRows, batch.failedRows, batch.errors],
    );
    return { processedRows: counters.processed_rows, successfulRows: counters.successful_rows, failedRows: counters.failed_rows, errorCount: counters.error_count };
  }

  /** The job's row errors, numbered from `firstSeq` (the job's error count before this batch). */
  async insertErrors(manager: EntityManager, jobId: string, firstSeq: number, errors: BulkImportRowError[]): Promise<void> {
    for (let start = 0; start < errors.length; start += ERRORS_PER_STATEMENT) {
      const slice = errors.slice(start, start + ERRORS_PER_STATEMENT);
      const params: unknown[] = [];
      const values = slice.map((error, i) => {
        params.push(jobId, firstSeq + start + i, error.row, error.field, error.message.slice(0, 500));
        const base = i * 5;
        return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5})`;
      });
      await manager.query(`INSERT INTO bulk_import_error (job_id, seq, row_number, field, message) VALUES ${values.join(', ')}`, params);
    }
  }

  /** The first `limit` row errors by row (the gateway keeps several batches in flight, and they may commit out of order). */
  async errorsByRow(jobId: string, limit: number, manager: EntityManager = this.dataSource.manager): Promise<BulkImportRowError[]> {
    const rows = await manager.query<Array<{ row_number: number; field: string; message: string }>>(
      'SELECT row_number, field, message FROM bulk_import_error WHERE job_id = $1 ORDER BY row_number, seq LIMIT $2',
      [jobId, limit],
    );
    return rows.map((row) => ({ row: row.row_number, field: row.field, message: row.message }));
  }
}
