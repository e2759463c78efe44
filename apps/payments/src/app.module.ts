import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';

/** The payments bounded context: internal accounts, the ledger, transfers, quotes and transactions. Until its features land it answers health checks only. */
@Module({
  imports: [PersistenceModule.forService({ service: 'payments', entities: [], migrations: [] })],
})
export class PaymentsAppModule {}
