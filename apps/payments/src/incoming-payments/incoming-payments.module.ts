import { Module } from '@nestjs/common';
import { PaymentsConfigModule } from '../config/payments-config';
import { CurrenciesModule } from '../currencies/currencies.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { LedgerModule } from '../ledger/ledger.module';
import { QuotesModule } from '../quotes/quotes.module';
import { CounterpartiesModule } from '../counterparties/counterparties.module';
import { ReceiverLookupModule } from '../receiver-lookup/receiver-lookup.module';
import { TransfersModule } from '../transfers/transfers.module';
import { AgentActionsModule } from '../agent-actions/agent-actions.module';
import { IncomingPaymentsHandlers } from './incoming-payments.handlers';
import { IncomingPaymentsRepository } from './incoming-payments.repository';
import { IncomingPaymentsService } from './incoming-payments.service';

@Module({
  imports: [
    PaymentsConfigModule,
    CounterpartiesModule,
    CurrenciesModule,
    InternalAccountsModule,
    LedgerModule,
    QuotesModule,
    ReceiverLookupModule,
    TransfersModule,
    AgentActionsModule,
  ],
  controllers: [IncomingPaymentsHandlers],
  providers: [IncomingPaymentsService, IncomingPaymentsRepository],
})
export class IncomingPaymentsModule {}
