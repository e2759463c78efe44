import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CARDS_EVENTS, cardTransactionWebhookType, NewEvent } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { InsertWithEvent, Outbox, StatementBatcher, TransactionRunner } from '@paykit/persistence';
import { toCardTransaction } from '../card-transaction.mapper';
import { CardTransactionsRepository } from '../card-transactions.repository';
import { CardTransactionEntity } from '../entities/card-transaction.entity';

/** Two recording statements in flight of up to 32 transactions each, as the ledger's hold batches. */
export const RECORDINGS_IN_FLIGHT = 2;
export const MAX_RECORDING_BATCH = 32;

/** Card transactions written with their status events: recorded new, or moved from the statuses a step expects. */
@Injectable()
export class CardTransactionWriter implements BeforeApplicationShutdown {
  /**
   * New card transactions with their events: those recorded together share one statement and
   * one commit (measured: a statement and a commit per authorization were most of the cards
   * database's CPU and a quarter of this process's, in socket writes).
   */
  private readonly recordings = new StatementBatcher<InsertWithEvent<CardTransactionEntity>, boolean>({
    maxInFlight: RECORDINGS_IN_FLIGHT,
    maxBatch: MAX_RECORDING_BATCH,
    keyOf: (recording) => recording.entity.id,
    run: (batch) => this.transactions.runStatement((manager) => this.outbox.addManyWithInserts(manager, this.cardTransactions.newRow, batch, this.cardTransactions.recordable)),
  });

  constructor(
    private readonly cardTransactions: CardTransactionsRepository,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.recordings.close(new ServiceError('SERVICE_UNAVAILABLE', 'The cards service is stopping'));
  }

  /** A new card transaction and its event; with `also`, in one transaction with what `also` writes. */
  async record(entity: CardTransactionEntity, also?: (manager: EntityManager) => Promise<void>): Promise<CardTransactionEntity> {
    if (!also) {
      await this.recordGroupCommitted(entity);
      return entity;
    }
    return this.transactions.run(async (manager) => {
      await this.cardTransactions.insert(manager, entity);
      await this.announce(manager, entity);
      await also(manager);
      return entity;
    });
  }

  /**
   * The new transaction and its event, group-committed with the others of the moment (the
   * authorization path); false when the guard kept it out. `guarded`: its money moved (it has an
   * interruption job, and a hold that an open card must keep).
   */
  recordGroupCommitted(entity: CardTransactionEntity, options: { guarded?: boolean } = {}): Promise<boolean> {
    return this.recordings.add({ entity, event: statusEventOf(entity), guarded: options.guarded === true });
  }

  /** The transaction's move from one of `from` with `changes`, and its event; 409 when it changed meanwhile. */
  async finish(
    entity: CardTransactionEntity,
    from: CardTransactionEntity['status'][],
    changes: Partial<Omit<CardTransactionEntity, 'id' | 'platformId'>>,
  ): Promise<CardTransactionEntity> {
    return this.transactions.run(async (manager) => {
      const next = await this.cardTransactions.transition(manager, entity, from, changes);
      if (!next) {
        const current = (await this.cardTransactions.findById(entity.platformId, entity.id, manager))!;
        throw new ServiceError('INVALID_STATE_TRANSITION', `Card transaction ${entity.id} changed meanwhile (now ${current.status})`);
      }
      await this.announce(manager, next);
      return next;
    });
  }

  async announce(manager: EntityManager, entity: CardTransactionEntity): Promise<void> {
    await this.outbox.add(manager, statusEventOf(entity));
  }
}

/** CARD_TRANSACTION.<STATUS>, with the transaction as GET returns it. */
function statusEventOf(entity: CardTransactionEntity): NewEvent<typeof CARDS_EVENTS.cardTransactionStatusChanged> {
  return {
    subject: CARDS_EVENTS.cardTransactionStatusChanged,
    platformId: entity.platformId,
    resourceId: entity.id,
    webhookType: cardTransactionWebhookType(entity.status),
    data: toCardTransaction(entity),
  };
}
