import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { serviceDataSourceOptions, ServiceDatabaseOptions } from './data-source';
import { openServiceDataSource } from './migrations-lock';
import { Outbox } from './outbox/outbox';
import { OutboxRelay } from './outbox/outbox-relay';
import { JobScheduler } from './scheduler/job-scheduler';
import { TransactionRunner } from './transaction-runner';
import { IdempotencyStore } from './idempotency/idempotency-store';
import { DeadLetterStore } from './dead-letters/dead-letter-store';

/** A service's database plus the plumbing on it: outbox, relay, scheduler, idempotency, dead letters. */
@Module({})
export class PersistenceModule {
  static forService(options: ServiceDatabaseOptions): DynamicModule {
    const providers = [Outbox, OutboxRelay, JobScheduler, TransactionRunner, IdempotencyStore, DeadLetterStore];
    return {
      module: PersistenceModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [RUNTIME_CONFIG],
          useFactory: (config: RuntimeConfig) => ({
            ...serviceDataSourceOptions(config, options),
            // Ride out a database that starts a little after the service; then fail loudly.
            retryAttempts: 5,
            retryDelay: 1000,
          }),
          // Replicas that start together against an empty database migrate it once (advisory lock).
          dataSourceFactory: (options) => openServiceDataSource(options!),
        }),
      ],
      providers,
      exports: [...providers, TypeOrmModule],
    };
  }
}
