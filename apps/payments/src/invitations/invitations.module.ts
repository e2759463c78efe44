import { Module } from '@nestjs/common';
import { CurrenciesModule } from '../currencies/currencies.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { ReceiverLookupModule } from '../receiver-lookup/receiver-lookup.module';
import { InvitationsHandlers } from './invitations.handlers';
import { InvitationsRepository } from './invitations.repository';
import { InvitationsService } from './invitations.service';

@Module({
  imports: [CurrenciesModule, InternalAccountsModule, ReceiverLookupModule],
  controllers: [InvitationsHandlers],
  providers: [InvitationsService, InvitationsRepository],
})
export class InvitationsModule {}
