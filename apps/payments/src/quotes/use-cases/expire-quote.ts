import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock, JobScheduler } from '@paykit/persistence';
import { EXPIRE_QUOTE_JOB } from '../quotes.jobs';
import { QuotesRepository } from '../quotes.repository';

/** A quote not executed by its `expiresAt` becomes EXPIRED (EXPIRE_QUOTE_JOB; a quote that moved on meanwhile stays as it is). */
@Injectable()
export class ExpireQuote implements OnModuleInit {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly quotes: QuotesRepository,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(EXPIRE_QUOTE_JOB, async (payload, manager) => {
      await this.quotes.expire(manager, payload.platformId, payload.quoteId, this.clock.now());
    });
  }
}
