import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError } from '@paykit/errors';
import { TransactionRunner } from '../transaction-runner';
import { isUniqueViolation } from '../unique-violation';
import { IdempotencyRecordEntity } from './idempotency-record.entity';

export function requestHash(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * `Idempotency-Key` support: the first request with a key stores its answer in the same
 * transaction as its effect; a replay with the same request gets that answer back, and the
 * same key with a different request is refused with 409.
 */
@Injectable()
export class IdempotencyStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * Runs `work` as one unit of work under an Idempotency-Key (without a key it just runs): an earlier
   * identical request gets its stored answer and `work` does not run, a new key stores the answer
   * with the effect, and when a concurrent first use of the key commits first, its answer is returned.
   */
  async runOnce<T>(platformId: string, key: string | undefined, hash: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.transactions.run(async (manager) => {
        if (key) {
          const earlier = await this.replay<T>(manager, platformId, key, hash);
          if (earlier) return earlier;
        }
        const answer = await work(manager);
        if (key) await this.remember(manager, platformId, key, hash, answer);
        return answer;
      });
    } catch (error) {
      if (key && isUniqueViolation(error, 'pk_idempotency_record')) {
        const earlier = await this.replay<T>(this.dataSource.manager, platformId, key, hash);
        if (earlier) return earlier;
      }
      throw error;
    }
  }

  /** Returns the stored answer of an earlier identical request, or undefined for a new key. */
  async replay<T>(manager: EntityManager, platformId: string, key: string, hash: string): Promise<T | undefined> {
    const existing = await manager.findOne(IdempotencyRecordEntity, { where: { platformId, idempotencyKey: key } });
    if (!existing) return undefined;
    if (existing.requestHash !== hash) {
      throw new ServiceError('CONFLICT', 'This Idempotency-Key was already used with a different request', { reason: 'IDEMPOTENCY_KEY_REUSED' });
    }
    return existing.response as T;
  }

  /** Records the answer; a concurrent first use of the same key fails on the primary key and rolls back. */
  async remember(manager: EntityManager, platformId: string, key: string, hash: string, response: unknown): Promise<void> {
    await manager.insert(IdempotencyRecordEntity, { platformId, idempotencyKey: key, requestHash: hash, response: response as object });
  }
}
