import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ServiceError } from '@paykit/errors';
import { TransactionRunner } from '../transaction-runner';
import { preparedStatement } from '../prepared-statements';
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
  constructor(private readonly transactions: TransactionRunner) {}

  /**
   * Runs `work` as one unit of work under an Idempotency-Key (without a key it just runs): an earlier
   * identical request gets its stored answer and `work` does not run, a new key stores the answer
   * with the effect. The key is claimed before the work: a concurrent first use of it waits on the
   * claim until this one commits (it then gets this answer) or fails (it then runs), so two uses of
   * one key never both run, and the later one never sees the earlier one's effect as its own refusal.
   */
  async runOnce<T>(platformId: string, key: string | undefined, hash: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!key) return this.transactions.run(work);
    return this.transactions.run(async (manager) => {
      if (!(await this.claim(manager, platformId, key, hash))) {
        // Taken by a committed request: records are never deleted, so it is there to read.
        const earlier = await this.stored<T>(manager, platformId, key, hash);
        if (!earlier) throw new Error(`Idempotency-Key ${key} was claimed, but its record is missing`);
        return earlier.response;
      }
      const answer = await work(manager);
      await manager.query(preparedStatement('UPDATE idempotency_record SET response = $3::jsonb WHERE platform_id = $1 AND idempotency_key = $2'), [
        platformId,
        key,
        JSON.stringify(answer),
      ]);
      return answer;
    });
  }

  /**
   * `runOnce` for work that writes with a single statement (atomic by itself): without a key it
   * runs outside any transaction (`TransactionRunner.runStatement`).
   */
  async runOnceInOneStatement<T>(platformId: string, key: string | undefined, hash: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return key ? this.runOnce(platformId, key, hash, work) : this.transactions.runStatement(work);
  }

  /**
   * Takes the key for this transaction; false if it is already taken. The row is visible to others
   * only with the answer written into it, when the transaction commits.
   */
  private async claim(manager: EntityManager, platformId: string, key: string, hash: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      preparedStatement(
        'INSERT INTO idempotency_record (platform_id, idempotency_key, request_hash, response) VALUES ($1, $2, $3, NULL) ON CONFLICT (platform_id, idempotency_key) DO NOTHING RETURNING 1 AS claimed',
      ),
      [platformId, key, hash],
    );
    return rows.length === 1;
  }

  /** Returns the stored answer of an earlier identical request, or undefined for a new key. */
  async replay<T>(manager: EntityManager, platformId: string, key: string, hash: string): Promise<T | undefined> {
    return (await this.stored<T>(manager, platformId, key, hash))?.response;
  }

  /** The key's record, if any: refused with 409 when it was used with another request. */
  private async stored<T>(manager: EntityManager, platformId: string, key: string, hash: string): Promise<{ response: T } | undefined> {
    const existing = await manager.findOne(IdempotencyRecordEntity, { where: { platformId, idempotencyKey: key } });
    if (!existing) return undefined;
    if (existing.requestHash !== hash) {
      throw new ServiceError('CONFLICT', 'This Idempotency-Key was already used with a different request', { reason: 'IDEMPOTENCY_KEY_REUSED' });
    }
    return { response: existing.response as T };
  }
}
