import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { QuotesRepository, QuoteWithTransaction } from '../quotes.repository';
import { AdvanceQuoteJob } from '../quotes.jobs';

/**
 * What the scheduler's batch of quote steps read, per batch transaction: the scheduler prepares a
 * batch once (JobPreparer) with the batch's EntityManager, then runs each step with that same
 * manager, so the reads are kept by manager until each step takes its own.
 */
@Injectable()
export class QuoteStepBatch {
  private readonly prepared = new WeakMap<EntityManager, Map<string, QuoteWithTransaction | undefined>>();

  constructor(private readonly quotes: QuotesRepository) {}

  /**
   * Reads the quotes and transactions of a batch of steps in one statement, each transaction
   * locked until the batch commits. A batch never holds two steps of one quote (each step
   * schedules the next when it commits), so nothing read changes before its step.
   */
  async prepare(payloads: AdvanceQuoteJob[], manager: EntityManager): Promise<void> {
    const found = await this.quotes.findManyWithTransactionLocked(
      manager,
      payloads.map((payload) => ({ platformId: payload.platformId, id: payload.quoteId })),
    );
    const byKey = new Map<string, QuoteWithTransaction | undefined>(payloads.map((payload) => [keyOf(payload), undefined]));
    for (const one of found) byKey.set(`${one.quote.platformId}|${one.quote.id}`, one);
    this.prepared.set(manager, byKey);
  }

  /** The step's quote and transaction (read now when no batch read them), taken once. */
  async take(payload: AdvanceQuoteJob, manager: EntityManager): Promise<QuoteWithTransaction | undefined> {
    const key = keyOf(payload);
    if (!this.prepared.get(manager)?.has(key)) await this.prepare([payload], manager);
    const prepared = this.prepared.get(manager)!;
    const found = prepared.get(key);
    prepared.delete(key);
    return found;
  }
}

function keyOf(payload: AdvanceQuoteJob): string {
  return `${payload.platformId}|${payload.quoteId}`;
}
