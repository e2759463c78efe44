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
import { Clock } from './clock/clock';
import { clockHandlersModule } from './clock/clock-handlers';
import { sandboxStateHandlersModule } from './sandbox/sandbox-state';
import { PlatformTimeScope } from './clock/platform-time.scope';
import { MESSAGE_SCOPE } from '@paykit/transport';

/** A service's database plus the plumbing on it: outbox, relay, scheduler, idempotency, dead letters, the platform clock. */
@Module({})
export class PersistenceModule {
  static forService(options: ServiceDatabaseOptions): DynamicModule {
    const providers = [Outbox, OutboxRelay, JobScheduler, TransactionRunner, IdempotencyStore, DeadLetterStore, Clock];
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
        // The gateway starts each advance (it fans it out); every other service applies it.
        // The gateway starts each advance (it fans it out) and orchestrates snapshots; every other service applies them.
        ...(options.service === 'gateway' ? [] : [clockHandlersModule(options.service), sandboxStateHandlersModule(options.service)]),
      ],
      providers: [...providers, { provide: MESSAGE_SCOPE, useClass: PlatformTimeScope }],
      exports: [...providers, TypeOrmModule],
    };
  }
}
