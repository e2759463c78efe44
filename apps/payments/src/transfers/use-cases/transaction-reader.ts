import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext, ListTransactionsQuery, Page, tenantPlatformId, Transaction } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, decodeCursor, idCursor, IdempotencyStore, pageLimit, toPage } from '@paykit/persistence';
import { retryWindowStart } from '../../client-retries';
import { CurrencyCatalog } from '../../currencies/currency-catalog';
import { PaymentTransactionEntity } from '../entities/payment-transaction.entity';
import { toTransaction } from '../transaction.mapper';
import { TransactionFilter, TransactionsRepository } from '../transactions.repository';

const TRANSACTION_CURSOR = idCursor('Transaction');

/** GET /transactions and /transactions/{id}, and the reads every transfer command shares. */
@Injectable()
export class TransactionReader {
  constructor(
    private readonly transfers: TransactionsRepository,
    private readonly currencies: CurrencyCatalog,
    private readonly idempotency: IdempotencyStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async get(ctx: CallerContext, transactionId: string): Promise<Transaction> {
    const entity = await this.transfers.findById(ctx.platformId, transactionId);
    if (!entity) throw new ServiceError('TRANSACTION_NOT_FOUND', `Transaction ${transactionId} not found`);
    return this.toResource(entity);
  }

  /** The transaction as the API returns it, in its sent and received currencies. */
  async toResource(entity: PaymentTransactionEntity): Promise<Transaction> {
    return toTransaction(entity, await this.currencies.get(entity.currencyCode), entity.platformId, await this.currencies.get(entity.receivedCurrencyCode ?? entity.currencyCode));
  }

  async list(ctx: CallerContext, query: ListTransactionsQuery): Promise<Page<Transaction>> {
    const limit = pageLimit(query.limit);
    const filter: Omit<TransactionFilter, 'afterCursorId' | 'ascending' | 'limit'> = {
      accountIds: [query.accountId, query.accountIdentifier].filter((id): id is string => id !== undefined),
      senderAccountId: query.senderAccountIdentifier,
      receiverAccountId: query.receiverAccountIdentifier,
      // The platform's own id (as the wire shows it, not the tenant's) selects the transactions of its own accounts (they have no customer).
      owner: query.customerId === undefined ? undefined : query.customerId === tenantPlatformId(ctx.platformId) ? { platform: true } : { customerId: query.customerId },
      platformCustomerId: query.platformCustomerId,
      status: query.status,
      type: query.type,
      reference: query.reference,
      createdFrom: latest(query.createdAfter, query.startDate),
      createdBefore: query.createdBefore ? new Date(query.createdBefore) : undefined,
      createdUntil: query.endDate ? new Date(query.endDate) : undefined,
    };
    const [rows, totalCount] = await Promise.all([
      this.transfers.list(ctx.platformId, { ...filter, ascending: query.sortOrder === 'asc', afterCursorId: decodeCursor(query.cursor, TRANSACTION_CURSOR), limit: limit + 1 }),
      this.transfers.count(ctx.platformId, filter),
    ]);
    const page = toPage(rows, limit, async (row) => this.toResource(row), TRANSACTION_CURSOR);
    return { ...page, data: await Promise.all(page.data), totalCount };
  }

  /** The answer an earlier identical request under this Idempotency-Key got (409 for the key with another request). */
  replayed(platformId: string, idempotencyKey: string, hash: string): Promise<Transaction | undefined> {
    return this.idempotency.replay<Transaction>(this.dataSource.manager, platformId, idempotencyKey, hash);
  }

  /** The most recent transfer with this fingerprint of the last 24 hours of the platform's time. */
  retried(platformId: string, fingerprint: string, manager?: EntityManager): Promise<PaymentTransactionEntity | undefined> {
    return this.transfers.findByFingerprint(platformId, fingerprint, retryWindowStart(this.clock), manager);
  }
}

/** The later of two optional instants (both filters apply). */
function latest(...values: Array<string | undefined>): Date | undefined {
  const dates = values.filter((value): value is string => value !== undefined).map((value) => new Date(value));
  return dates.length === 0 ? undefined : new Date(Math.max(...dates.map((date) => date.getTime())));
}
