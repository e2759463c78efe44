import { Module } from '@nestjs/common';
import { ExchangeRatesModule } from '../exchange-rates/exchange-rates.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { QuotesModule } from '../quotes/quotes.module';
import { TransfersModule } from '../transfers/transfers.module';
import { AgentActionsHandlers } from './agent-actions.handlers';
import { AgentActionsRepository } from './agent-actions.repository';
import { AgentActionsService } from './agent-actions.service';

/** Agents' money movements checked against their policy, their pending actions and usage. */
@Module({
  imports: [InternalAccountsModule, TransfersModule, QuotesModule, ExchangeRatesModule],
  controllers: [AgentActionsHandlers],
  providers: [AgentActionsService, AgentActionsRepository],
  exports: [AgentActionsService],
})
export class AgentActionsModule {}
