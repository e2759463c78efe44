import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';
import { DiscoveriesModule } from './discoveries/discoveries.module';
import { DiscoveryBankEntity } from './discoveries/entities/discovery-bank.entity';
import { ExternalAccountEntity } from './external-accounts/entities/external-account.entity';
import { ExternalAccountsModule } from './external-accounts/external-accounts.module';
import { CreateExternalAccounts1732300300000 } from './migrations/1732300300000-CreateExternalAccounts';
import { AllCorridorsAndOwnership1764072000000 } from './migrations/1764072000000-AllCorridorsAndOwnership';

/** The external-accounts bounded context: external accounts (bank, mobile money, crypto) and discovery data. */
@Module({
  imports: [
    PersistenceModule.forService({
      service: 'external-accounts',
      entities: [ExternalAccountEntity, DiscoveryBankEntity],
      migrations: [CreateExternalAccounts1732300300000, AllCorridorsAndOwnership1764072000000],
    }),
    DiscoveriesModule,
    ExternalAccountsModule,
  ],
})
export class ExternalAccountsAppModule {}
