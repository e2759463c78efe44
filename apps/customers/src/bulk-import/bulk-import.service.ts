import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  AppendBulkImportRowsRequest,
  BulkImportJob,
  BulkImportRowError,
  BulkRowsProcessed,
  CallerContext,
  CUSTOMERS_EVENTS,
  CUSTOMER_WEBHOOK_TYPES,
  FinishBulkImportRequest,
  newId,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { isUniqueViolation, Outbox, returningRows, TransactionRunner } from '@paykit/persistence';
import { CustomersRepository } from '../customers/customers.repository';
import { CustomersService } from '../customers/customers.service';
import { CustomerEntity } from '../customers/entities/customer.entity';
import { PlatformConfigService } from '../platform-config/platform-config.service';
import { headerProblem, parseRow, rowErrors } from './bulk-rows';
import { BulkImportJobEntity } from './entities/bulk-import-job.entity';

/** GET shows this many row errors, by row; `errorCount` counts them all. */
export const JOB_ERRORS_SHOWN = 1000;

/**
 * Bulk customer import. The gateway streams the CSV and sends rows in batches; each row is
 * validated like POST /customers, good rows are created (with their events) and bad rows are
 * recorded with their errors. A bad row never stops the others.
 */
@Injectable()
export class BulkImportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly customers: CustomersService,
    private readonly repository: CustomersRepository,
    private readonly platformConfig: PlatformConfigService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
  ) {}

  async start(ctx: CallerContext, fileName: string | undefined): Promise<BulkImportJob> {
    const now = new Date();
    const job: BulkImportJobEntity = {
      id: newId('BulkUploadJob'),
      platformId: ctx.platformId,
      fileName: fileName ?? null,
      status: 'PROCESSING',
      processedRows: 0,
      successfulRows: 0,
      failedRows: 0,
      errorCount: 0,
      failure: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    };
    await this.dataSource.manager.insert(BulkImportJobEntity, job);
    return this.toJob(this.dataSource.manager, job);
  }

  async appendRows(ctx: CallerContext, request: AppendBulkImportRowsRequest): Promise<BulkRowsProcessed> {
    const job = await this.requireJob(ctx, request.jobId);
    if (job.status !== 'PROCESSING') throw new ServiceError('CONFLICT', `Bulk upload job ${job.id} is ${job.status}`);
    const problem = headerProblem(request.columns);
    if (problem) {
      const failed = await this.finish(ctx, { jobId: job.id, failure: problem });
      return { ...failed.progress, jobFailed: problem };
    }
    const config = await this.platformConfig.load(ctx.platformId);
    const errors: BulkImportRowError[] = [];
    const valid: Array<{ row: number; entity: CustomerEntity }> = [];
    const umaSeen = new Map<string, number>();
    const now = new Date();
    for (const [index, cells] of request.rows.entries()) {
      const row = request.firstRow + index;
      const parsed = parseRow(row, request.columns, cells);
      if (Array.isArray(parsed)) {
        errors.push(...parsed);
        continue;
      }
      try {
        const entity = this.customers.newCustomer(ctx, parsed, config, now);
        if (entity.umaAddress && umaSeen.has(entity.umaAddress)) {
          errors.push({ row, field: 'umaAddress', message: `umaAddress repeats row ${umaSeen.get(entity.umaAddress)}` });
          continue;
        }
        if (entity.umaAddress) umaSeen.set(entity.umaAddress, row);
        valid.push({ row, entity });
      } catch (error) {
        errors.push(...rowErrors(row, error));
      }
    }
    const taken = await this.takenUmaAddresses(ctx.platformId, [...umaSeen.keys()]);
    const accepted = valid.filter(({ row, entity }) => {
      if (!entity.umaAddress || !taken.has(entity.umaAddress)) return true;
      errors.push({ row, field: 'umaAddress', message: 'umaAddress belongs to another customer of the platform' });
      return false;
    });
    try {
      return await this.record(ctx, job.id, request.rows.length, accepted.map((v) => v.entity), errors);
    } catch (error) {
      // Another request took a UMA address meanwhile: fall back to one row at a time.
      if (!isUniqueViolation(error)) throw error;
      let progress = await this.record(ctx, job.id, request.rows.length - accepted.length, [], errors);
      for (const { row, entity } of accepted) {
        progress = await this.record(ctx, job.id, 1, [entity], []).catch(async (rowError: unknown) => {
          if (!isUniqueViolation(rowError)) throw rowError;
          return this.record(ctx, job.id, 1, [], [{ row, field: 'umaAddress', message: 'umaAddress belongs to another customer of the platform' }]);
        });
      }
      return progress;
    }
  }

  /**
   * One transaction: the batch's customers and their events, its errors, and the job's counters.
   * Returns the job's progress as this transaction left it.
   */
  private async record(ctx: CallerContext, jobId: string, rows: number, created: CustomerEntity[], errors: BulkImportRowError[]): Promise<BulkRowsProcessed> {
    const failedRows = new Set(errors.map((e) => e.row)).size;
    return this.transactions.run(async (manager) => {
      await this.repository.insertMany(manager, created);
      await this.customers.announceCreated(manager, ctx, created);
      const [counters] = await returningRows<{ processed_rows: number; successful_rows: number; failed_rows: number; error_count: number }>(
        manager,
        `UPDATE bulk_import_job SET processed_rows = processed_rows + $2, successful_rows = successful_rows + $3, failed_rows = failed_rows + $4,
                error_count = error_count + $5, updated_at = now()
          WHERE id = $1 RETURNING processed_rows, successful_rows, failed_rows, error_count`,
        [jobId, rows, created.length, failedRows, errors.length],
      );
      await this.insertErrors(manager, jobId, counters.error_count - errors.length, errors);
      return { processedRows: counters.processed_rows, successfulRows: counters.successful_rows, failedRows: counters.failed_rows };
    });
  }

  private async insertErrors(manager: EntityManager, jobId: string, firstSeq: number, errors: BulkImportRowError[]): Promise<void> {
    for (let start = 0; start < errors.length; start += 1000) {
      const slice = errors.slice(start, start + 1000);
      const params: unknown[] = [];
      const values = slice.map((error, i) => {
        params.push(jobId, firstSeq + start + i, error.row, error.field, error.message.slice(0, 500));
        const base = i * 5;
        return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5})`;
      });
      await manager.query(`INSERT INTO bulk_import_error (job_id, seq, row_number, field, message) VALUES ${values.join(', ')}`, params);
    }
  }

  private async takenUmaAddresses(platformId: string, addresses: string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const rows = await this.dataSource.query<Array<{ uma_address: string }>>(
      'SELECT uma_address FROM customer WHERE platform_id = $1 AND uma_address = ANY($2)',
      [platformId, addresses],
    );
    return new Set(rows.map((r) => r.uma_address));
  }

  /** Ends the job (COMPLETED, or FAILED with the reason) and announces it by webhook. */
  async finish(ctx: CallerContext, request: FinishBulkImportRequest): Promise<BulkImportJob> {
    return this.transactions.run(async (manager) => {
      const job = await manager.findOne(BulkImportJobEntity, { where: { platformId: ctx.platformId, id: request.jobId }, lock: { mode: 'pessimistic_write' } });
      if (!job) throw new ServiceError('BULK_UPLOAD_JOB_NOT_FOUND', `Bulk upload job ${request.jobId} not found`);
      if (job.status !== 'PROCESSING') return this.toJob(manager, job);
      job.status = request.failure ? 'FAILED' : 'COMPLETED';
      job.failure = request.failure ?? null;
      job.completedAt = new Date();
      job.updatedAt = job.completedAt;
      await manager.save(BulkImportJobEntity, job);
      const result = await this.toJob(manager, job);
      await this.outbox.add(manager, {
        subject: CUSTOMERS_EVENTS.bulkImportFinished,
        platformId: ctx.platformId,
        resourceId: job.id,
        webhookType: job.status === 'COMPLETED' ? CUSTOMER_WEBHOOK_TYPES.BULK_UPLOAD_COMPLETED : CUSTOMER_WEBHOOK_TYPES.BULK_UPLOAD_FAILED,
        data: result,
      });
      return result;
    });
  }

  async get(ctx: CallerContext, jobId: string): Promise<BulkImportJob> {
    return this.toJob(this.dataSource.manager, await this.requireJob(ctx, jobId));
  }

  private async requireJob(ctx: CallerContext, jobId: string): Promise<BulkImportJobEntity> {
    const job = await this.dataSource.manager.findOne(BulkImportJobEntity, { where: { platformId: ctx.platformId, id: jobId } });
    if (!job) throw new ServiceError('BULK_UPLOAD_JOB_NOT_FOUND', `Bulk upload job ${jobId} not found`);
    return job;
  }

  private async toJob(manager: EntityManager, job: BulkImportJobEntity): Promise<BulkImportJob> {
    // By row: the gateway keeps several batches in flight, and they may commit out of order.
    const errors = job.errorCount === 0
      ? []
      : await manager.query<Array<{ row_number: number; field: string; message: string }>>(
          'SELECT row_number, field, message FROM bulk_import_error WHERE job_id = $1 ORDER BY row_number, seq LIMIT $2',
          [job.id, JOB_ERRORS_SHOWN],
        );
    return {
      id: job.id,
      status: job.status,
      ...(job.fileName ? { fileName: job.fileName } : {}),
      progress: { processedRows: job.processedRows, successfulRows: job.successfulRows, failedRows: job.failedRows },
      errors: errors.map((e) => ({ row: e.row_number, field: e.field, message: e.message })),
      errorCount: job.errorCount,
      ...(job.failure ? { failure: job.failure } : {}),
      createdAt: job.createdAt.toISOString(),
      updatedAt: job.updatedAt.toISOString(),
      ...(job.completedAt ? { completedAt: job.completedAt.toISOString() } : {}),
    };
  }
}
