import { Module } from '@nestjs/common';
import { DiscoveriesModule } from '../discoveries/discoveries.module';
import { ExternalAccountsHandlers } from './external-accounts.handlers';
import { ExternalAccountsRepository } from './external-accounts.repository';
import { ExternalAccountsService } from './external-accounts.service';

@Module({
  imports: [DiscoveriesModule],
  controllers: [ExternalAccountsHandlers],
  providers: [ExternalAccountsService, ExternalAccountsRepository],
})
export class ExternalAccountsModule {}
