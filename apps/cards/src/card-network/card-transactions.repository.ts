import { Injectable } from '@nestjs/common';
import { And, DataSource, EntityManager, FindOperator, FindOptionsWhere, In, IsNull, LessThan, MoreThan, MoreThanOrEqual } from 'typeorm';
import { CardTransactionStatus } from '@paykit/contracts';
import { amountToColumn, EntityInsert, InsertGuard, returningRows, Clock } from '@paykit/persistence';
import { CardTransactionEntity } from './entities/card-transaction.entity';

const INTERRUPTION_KEY_SUFFIX = ':interrupted';

/**
 * The dedupe key of an authorization's interruption job: scheduled (and committed) before its
 * money moves, deleted by the statement that records it, so it runs only for an authorization
 * that was never recorded (its process died, or it was held up past the job's time).
 */
export function interruptionKeyOf(cardTransactionId: string): string {
  return `${cardTransactionId}${INTERRUPTION_KEY_SUFFIX}`;
}

/** Every query takes the platform first: another platform's transaction does not exist here. */
@Injectable()
export class CardTransactionsRepository {
  /** The INSERT of a new transaction, built once from the entity (no query builder on the authorization path). */
  readonly newRow: EntityInsert<CardTransactionEntity>;
  /**
   * Keeps a guarded new transaction (one whose money moved, see `interruptionKeyOf`) out when
   * either of two things happened while the ledger step ran:
   * - its hold is open and its card is now CLOSED: the card row is share-locked and re-read, so a
   *   close either waits for the insert (and its reconciliation then sees the row) or committed
   *   first (and nothing is inserted). Each card is probed by its primary key (a lateral join, the
   *   platform checked after it), so no plan reads the whole card table or a platform's cards,
   *   even one made while the table was empty;
   * - its interruption job was claimed: the job undoes the money step, so the transaction must
   *   not be recorded. The statement deletes the batch's interruption jobs (by their unique key),
   *   which waits for a job run in progress (it holds the row) and answers each job's status: only
   *   a job still PENDING lets its transaction in, and it will never run.
   */
  readonly recordable: InsertGuard = {
    ctes: `open_card AS (
        SELECT c.platform_id, c.id FROM (SELECT DISTINCT platform_id, card_id FROM input WHERE outbox_guarded) AS k
         CROSS JOIN LATERAL (
           SELECT card.platform_id, card.id FROM card
            WHERE card.id = k.card_id AND card.state <> 'CLOSED'
              FOR KEY SHARE) AS c
         WHERE c.platform_id = k.platform_id
      ), interruption AS (
        DELETE FROM scheduled_job
         WHERE dedupe_key = ANY (ARRAY(SELECT id || '${INTERRUPTION_KEY_SUFFIX}' FROM input WHERE outbox_guarded))
        RETURNING dedupe_key, status)`,
    condition: `(i.hold_id IS NULL OR i.settled_at IS NOT NULL OR EXISTS (SELECT 1 FROM open_card o WHERE o.platform_id = i.platform_id AND o.id = i.card_id))
      AND NOT EXISTS (SELECT 1 FROM interruption t WHERE t.dedupe_key = i.id || '${INTERRUPTION_KEY_SUFFIX}' AND t.status <> 'PENDING')`,
  };

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    this.newRow = new EntityInsert(dataSource, CardTransactionEntity);
  }

  findById(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<CardTransactionEntity | null> {
    return manager.findOne(CardTransactionEntity, { where: { platformId, id } });
  }

  list(platformId: string, cardId: string, filter: { status?: CardTransactionStatus; beforeId?: string; limit: number }): Promise<CardTransactionEntity[]> {
    return this.dataSource.manager.find(CardTransactionEntity, {
      where: {
        platformId,
        cardId,
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.beforeId ? { id: LessThan(filter.beforeId) } : {}),
      },
      order: { id: 'DESC' },
      take: filter.limit,
    });
  }

  /** The platform's card transactions across its cards, newest (or oldest) first: the transaction list's card part. */
  search(platformId: string, filter: CardTransactionFilter & { afterId?: string; ascending: boolean; limit: number }): Promise<CardTransactionEntity[]> {
    const where = searchWhere(platformId, filter);
    return this.dataSource.manager.find(CardTransactionEntity, {
      where: filter.afterId ? { ...where, id: filter.ascending ? MoreThan(filter.afterId) : LessThan(filter.afterId) } : where,
      order: { id: filter.ascending ? 'ASC' : 'DESC' },
      take: filter.limit,
    });
  }

  /** How many card transactions match the search on all pages. */
  count(platformId: string, filter: CardTransactionFilter): Promise<number> {
    return this.dataSource.manager.count(CardTransactionEntity, { where: searchWhere(platformId, filter) });
  }

  /** Authorizations of a card whose hold or pull is still open (released when the card closes). */
  openOfCard(platformId: string, cardId: string): Promise<CardTransactionEntity[]> {
    return this.dataSource.manager.find(CardTransactionEntity, {
      where: { platformId, cardId, status: In(['PENDING', 'CONFIRMED', 'EXCEPTION']) },
      order: { id: 'ASC' },
    });
  }

  async insert(manager: EntityManager, entity: CardTransactionEntity): Promise<void> {
    await manager.query(this.newRow.sql, this.newRow.params(entity));
  }

  /**
   * Records a new transaction unless its id is already recorded; false then. A redelivered
   * network message (an advice, whose id its token fixes) finds its first delivery's row here.
   */
  async insertIfNew(manager: EntityManager, entity: CardTransactionEntity): Promise<boolean> {
    const rows: unknown[] = await manager.query(`${this.newRow.sql} ON CONFLICT DO NOTHING RETURNING 1`, this.newRow.params(entity));
    return rows.length > 0;
  }

  /**
   * Moves a transaction on only from the status the caller saw (a conditional update): a
   * concurrent step that got there first wins and this one changes nothing.
   */
  async transition(
    manager: EntityManager,
    entity: CardTransactionEntity,
    from: CardTransactionStatus[],
    changes: Partial<Omit<CardTransactionEntity, 'id' | 'platformId'>>,
  ): Promise<CardTransactionEntity | undefined> {
    const updatedAt = this.clock.now();
    const result = await manager.update(CardTransactionEntity, { platformId: entity.platformId, id: entity.id, status: In(from) }, { ...changes, updatedAt });
    if ((result.affected ?? 0) === 0) return undefined;
    return (await this.findById(entity.platformId, entity.id, manager))!;
  }

  /**
   * Reserves a return of `amount` on a settled debit: never more than what was settled and not
   * yet returned, even under concurrent returns. Gives the return's sequence number.
   */
  async reserveReturn(manager: EntityManager, platformId: string, id: string, amount: bigint): Promise<number | undefined> {
    const rows = await returningRows<{ return_count: number }>(
      manager,
      `UPDATE card_transaction SET refunded_amount = refunded_amount + $3, return_count = return_count + 1, updated_at = now()
        WHERE platform_id = $1 AND id = $2 AND status = 'SETTLED' AND direction = 'DEBIT' AND refunded_amount + $3 <= settled_amount
        RETURNING return_count`,
      [platformId, id, amountToColumn(amount)],
    );
    return rows[0]?.return_count;
  }

  /**
   * Numbers the next re-sizing or return reversal of a transaction still in one of `from`: the
   * number keys its ledger steps. Undefined when the transaction has left those statuses.
   */
  async reserveAdjustment(manager: EntityManager, platformId: string, id: string, from: CardTransactionStatus[]): Promise<number | undefined> {
    const rows = await returningRows<{ adjustment_count: number }>(
      manager,
      `UPDATE card_transaction SET adjustment_count = adjustment_count + 1, updated_at = now()
        WHERE platform_id = $1 AND id = $2 AND status = ANY ($3::text[])
        RETURNING adjustment_count`,
      [platformId, id, from],
    );
    return rows[0]?.adjustment_count;
  }

  /** Claims the crediting of a pending credit; false when another step already claimed it. */
  async claimCredit(manager: EntityManager, platformId: string, id: string): Promise<boolean> {
    const result = await manager.update(
      CardTransactionEntity,
      { platformId, id, status: 'PENDING', direction: 'CREDIT', creditClaimedAt: IsNull() },
      { creditClaimedAt: this.clock.now() },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Undoes a reservation whose ledger refund failed. */
  async cancelReturn(manager: EntityManager, platformId: string, id: string, amount: bigint): Promise<void> {
    await manager.query(`UPDATE card_transaction SET refunded_amount = refunded_amount - $3, updated_at = now() WHERE platform_id = $1 AND id = $2`, [
      platformId,
      id,
      amountToColumn(amount),
    ]);
  }
}

/** What a card transaction search filters on (the cursor and order aside). */
export interface CardTransactionFilter {
  accountId?: string;
  customerId?: string;
  platformCustomerId?: string;
  status?: CardTransactionStatus;
  createdAfter?: Date;
  createdBefore?: Date;
}

function searchWhere(platformId: string, filter: CardTransactionFilter): FindOptionsWhere<CardTransactionEntity> {
  const created: FindOperator<Date>[] = [];
  if (filter.createdAfter) created.push(MoreThanOrEqual(filter.createdAfter));
  if (filter.createdBefore) created.push(LessThan(filter.createdBefore));
  return {
    platformId,
    ...(filter.accountId ? { accountId: filter.accountId } : {}),
    ...(filter.customerId ? { customerId: filter.customerId } : {}),
    ...(filter.platformCustomerId ? { platformCustomerId: filter.platformCustomerId } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(created.length > 0 ? { createdAt: created.length === 1 ? created[0] : And(...created) } : {}),
  };
}
