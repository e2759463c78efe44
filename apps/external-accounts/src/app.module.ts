import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';

/** The external-accounts bounded context: external accounts (bank, mobile money, crypto) and discovery data. Until its features land it answers health checks only. */
@Module({
  imports: [PersistenceModule.forService({ service: 'external-accounts', entities: [], migrations: [] })],
})
export class ExternalAccountsAppModule {}
