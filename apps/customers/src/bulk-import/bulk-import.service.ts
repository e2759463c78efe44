import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  AppendBulkImportRowsRequest,
  BulkImportJob,
  BulkImportErrorEntry,
  BulkImportProgress,
  BulkImportRowError,
  BulkRowsProcessed,
  CallerContext,
  CUSTOMERS_EVENTS,
  CUSTOMER_WEBHOOK_TYPES,
  FinishBulkImportRequest,
  newId,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { isUniqueViolation, Outbox, TransactionRunner, Clock } from '@paykit/persistence';
import { CustomersRepository } from '../customers/customers.repository';
import { CustomersService } from '../customers/customers.service';
import { CustomerEntity } from '../customers/entities/customer.entity';
import { PlatformConfigService } from '../platform-config/platform-config.service';
import { ProvisioningRepository } from '../provisioning/provisioning.repository';
import { BulkImportRepository } from './bulk-import.repository';
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
    private readonly jobs: BulkImportRepository,
    private readonly customers: CustomersService,
    private readonly repository: CustomersRepository,
    private readonly platformConfig: PlatformConfigService,
    private readonly provisioning: ProvisioningRepository,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async start(ctx: CallerContext, fileName: string | undefined): Promise<BulkImportJob> {
    const now = this.clock.now();
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
    await this.jobs.insert(job);
    return this.toJob(job);
  }

  async appendRows(ctx: CallerContext, request: AppendBulkImportRowsRequest): Promise<BulkRowsProcessed> {
    const job = await this.requireJob(ctx, request.jobId);
    if (job.status !== 'PROCESSING') throw new ServiceError('CONFLICT', `Bulk upload job ${job.id} is ${job.status}`);
    const problem = headerProblem(request.columns);
    if (problem) {
      const failed = await this.finish(ctx, { jobId: job.id, failure: problem });
      return { ...progressCounters(failed.progress), jobFailed: problem };
    }
    const config = await this.platformConfig.load(ctx.platformId);
    const errors: BulkImportRowError[] = [];
    const valid: Array<{ row: number; entity: CustomerEntity }> = [];
    const umaSeen = new Map<string, number>();
    const now = this.clock.now();
    for (const [index, cells] of request.rows.entries()) {
      const row = request.firstRow + index;
      const parsed = parseRow(row, request.columns, cells);
      if (Array.isArray(parsed)) {
        errors.push(...parsed);
        continue;
      }
      try {
        const entity = { ...this.customers.newCustomer(ctx, parsed, config, now), bulkImportJobId: job.id };
        if (entity.umaAddress && umaSeen.has(entity.umaAddress)) {
          errors.push({ row, field: 'umaAddress', message: `umaAddress repeats row ${umaSeen.get(entity.umaAddress)}` });
          continue;
        }
        if (entity.umaAddress) umaSeen.set(entity.umaAddress, row);
        valid.push({ row, entity });
      } catch (error) {
        errors.push(...rowErrors(row, error, request.columns));
      }
    }
    const taken = await this.repository.takenUmaAddresses(ctx.platformId, [...umaSeen.keys()]);
    const accepted = valid.filter(({ row, entity }) => {
      if (!entity.umaAddress || !taken.has(entity.umaAddress)) return true;
      errors.push({ row, field: 'umaAddress', message: 'umaAddress belongs to another customer of the platform' });
      return false;
    });
    try {
      return await this.record(
        ctx,
        job.id,
        request.rows.length,
        accepted.map((v) => v.entity),
        errors,
      );
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
      const counters = await this.jobs.addToCounters(manager, jobId, { processedRows: rows, successfulRows: created.length, failedRows, errors: errors.length });
      await this.jobs.insertErrors(manager, jobId, counters.errorCount - errors.length, errors);
      return { processedRows: counters.processedRows, successfulRows: counters.successfulRows, failedRows: counters.failedRows };
    });
  }

  /** Ends the job (COMPLETED, or FAILED with the reason) and announces it by webhook. */
  async finish(ctx: CallerContext, request: FinishBulkImportRequest): Promise<BulkImportJob> {
    return this.transactions.run(async (manager) => {
      const job = await this.jobs.findForUpdate(manager, ctx.platformId, request.jobId);
      if (!job) throw new ServiceError('BULK_UPLOAD_JOB_NOT_FOUND', `Bulk upload job ${request.jobId} not found`);
      if (job.status !== 'PROCESSING') return this.toJob(job, manager);
      job.status = request.failure ? 'FAILED' : 'COMPLETED';
      job.failure = request.failure ?? null;
      job.completedAt = this.clock.now();
      job.updatedAt = job.completedAt;
      await this.jobs.save(manager, job);
      const result = await this.toJob(job, manager);
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
    return this.toJob(await this.requireJob(ctx, jobId));
  }

  private async requireJob(ctx: CallerContext, jobId: string): Promise<BulkImportJobEntity> {
    const job = await this.jobs.findById(ctx.platformId, jobId);
    if (!job) throw new ServiceError('BULK_UPLOAD_JOB_NOT_FOUND', `Bulk upload job ${jobId} not found`);
    return job;
  }

  /** Inside a transaction, through its manager: the job's errors as that transaction sees them. */
  private async toJob(job: BulkImportJobEntity, manager?: EntityManager): Promise<BulkImportJob> {
    const errors = job.errorCount === 0 ? [] : await this.jobs.errorsByRow(job.id, JOB_ERRORS_SHOWN, manager);
    // Counted live: the job completes when its rows are read, its customers become ready after (payments, wallet-auth).
    const ready = job.successfulRows === 0 ? 0 : await this.provisioning.countReadyOfJob(job.platformId, job.id, manager);
    return {
      id: job.id,
      jobId: job.id,
      status: job.status,
      ...(job.fileName ? { fileName: job.fileName } : {}),
      // Rows are counted as they are read: the total is what has been read so far (the whole file once the job is done).
      progress: { total: job.processedRows, processed: job.processedRows, successful: job.successfulRows, failed: job.failedRows, ready },
      errors: errors.map(toErrorEntry),
      errorCount: job.errorCount,
      ...(job.failure ? { failure: job.failure } : {}),
      createdAt: job.createdAt.toISOString(),
      updatedAt: job.updatedAt.toISOString(),
      ...(job.completedAt ? { completedAt: job.completedAt.toISOString() } : {}),
    };
  }
}

/** A row problem in the reference's shape: the error envelope of the row, named by its row number. */
function toErrorEntry(error: BulkImportRowError): BulkImportErrorEntry {
  return {
    correlationId: `row-${error.row}`,
    status: 400,
    code: 'INVALID_INPUT',
    message: error.field ? `${error.field}: ${error.message}` : error.message,
    details: { row: error.row, field: error.field },
  };
}

function progressCounters(progress: BulkImportJob['progress']): BulkImportProgress {
  return { processedRows: progress.processed, successfulRows: progress.successful, failedRows: progress.failed };
}
