import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { amountFromWire, amountToWire, CallerContext, SetVelocityLimitRequest, VelocityLimit } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { CurrencyCatalog } from '../../currencies/currency-catalog';
import { TransactionLimitsRepository } from '../transaction-limits.repository';

/** A customer's velocity limits per currency (daily count and amount): PUT of the limit, and each transfer's check against it. */
@Injectable()
export class VelocityLimits {
  constructor(
    private readonly limits: TransactionLimitsRepository,
    private readonly currencies: CurrencyCatalog,
  ) {}

  async set(ctx: CallerContext, request: SetVelocityLimitRequest): Promise<VelocityLimit> {
    if (!(await this.currencies.find(request.currency))) throw new ServiceError('INVALID_CURRENCY', `Unknown currency ${request.currency}`);
    await this.limits.setVelocityLimit(
      ctx.platformId,
      request.customerId,
      request.currency,
      request.maxCountPerDay ?? null,
      request.maxAmountPerDay === undefined ? null : amountFromWire(request.maxAmountPerDay),
    );
    return request.maxCountPerDay === undefined && request.maxAmountPerDay === undefined
      ? { customerId: request.customerId, currency: request.currency }
      : {
          customerId: request.customerId,
          currency: request.currency,
          ...(request.maxCountPerDay !== undefined ? { maxCountPerDay: request.maxCountPerDay } : {}),
          ...(request.maxAmountPerDay !== undefined ? { maxAmountPerDay: request.maxAmountPerDay } : {}),
        };
  }

  /** VELOCITY_LIMIT_EXCEEDED when one more transfer of `amount` would pass the customer's limit (its usage locked until the caller's transaction ends). */
  async assertWithin(manager: EntityManager, platformId: string, customerId: string, currency: string, amount: bigint): Promise<void> {
    const usage = await this.limits.lockVelocity(manager, platformId, customerId, currency);
    if (!usage) return;
    const overCount = usage.maxCount !== null && usage.count + 1 > usage.maxCount;
    const overAmount = usage.maxAmount !== null && usage.amount + amount > usage.maxAmount;
    if (overCount || overAmount) {
      throw new ServiceError('VELOCITY_LIMIT_EXCEEDED', `The customer's ${overCount ? 'daily transfer count' : 'daily transfer amount'} limit in ${currency} would be exceeded`, {
        ...(usage.maxCount !== null ? { maxCountPerDay: usage.maxCount } : {}),
        ...(usage.maxAmount !== null ? { maxAmountPerDay: amountToWire(usage.maxAmount) } : {}),
        countLast24h: usage.count,
        amountLast24h: amountToWire(usage.amount),
      });
    }
  }
}
