import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';

/** The wallet-auth bounded context: credentials, sessions and signed-retry challenges. Health only until its features land. */
@Module({
  imports: [PersistenceModule.forService({ service: 'wallet-auth', entities: [], migrations: [] })],
})
export class WalletAuthAppModule {}
