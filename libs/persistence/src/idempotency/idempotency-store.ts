import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ServiceError } from '@paykit/errors';
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
