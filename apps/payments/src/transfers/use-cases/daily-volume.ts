import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { amountFromWire, amountToWire, CallerContext, DailyVolumeLimit, SetDailyVolumeLimitRequest } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock } from '@paykit/persistence';
import { TransactionLimitsRepository } from '../transaction-limits.repository';

/** The platform's daily volume limit per currency: PUT of the limit, and each payment's count against it. */
@Injectable()
export class DailyVolume {
  constructor(
    private readonly limits: TransactionLimitsRepository,
    private readonly clock: Clock,
  ) {}

  async setLimit(ctx: CallerContext, request: SetDailyVolumeLimitRequest): Promise<DailyVolumeLimit> {
    await this.limits.setDailyVolumeLimit(
      ctx.platformId,
      request.currency,
      request.maxAmountPerDay === null || request.maxAmountPerDay === undefined ? null : amountFromWire(request.maxAmountPerDay),
    );
    return { currency: request.currency, ...(request.maxAmountPerDay !== null && request.maxAmountPerDay !== undefined ? { maxAmountPerDay: request.maxAmountPerDay } : {}) };
  }

  /**
   * Counts `amount` against the platform's daily volume limit in `currency` (the day of the
   * platform's time, so the sandbox clock moves it), or 429 DAILY_VOLUME_LIMIT_EXCEEDED naming the
   * limit and what is left of it today. The day it counted in, for `release`.
   */
  async reserve(manager: EntityManager, platformId: string, currency: string, amount: bigint): Promise<string> {
    const day = this.clock.now().toISOString().slice(0, 10);
    const reserved = await this.limits.reserveDailyVolume(manager, platformId, currency, day, amount);
    if (reserved && !reserved.added) {
      throw new ServiceError('DAILY_VOLUME_LIMIT_EXCEEDED', `The amount would exceed the platform's daily volume limit of ${amountToWire(reserved.limit)} in ${currency}`, {
        limit: { currency, maxAmountPerDay: amountToWire(reserved.limit), period: 'DAY' },
        remainingVolume: amountToWire(reserved.remaining),
        requestedAmount: amountToWire(amount),
        day,
      });
    }
    return day;
  }

  async release(manager: EntityManager, platformId: string, currency: string, day: string, amount: bigint): Promise<void> {
    await this.limits.releaseDailyVolume(manager, platformId, currency, day, amount);
  }
}
