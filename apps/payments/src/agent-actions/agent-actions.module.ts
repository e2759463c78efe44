import { Module } from '@nestjs/common';
import { ExchangeRatesModule } from '../exchange-rates/exchange-rates.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { QuotesModule } from '../quotes/quotes.module';
import { TransfersModule } from '../transfers/transfers.module';
import { AgentActionsHandlers } from './agent-actions.handlers';
import { AgentActionsRepository } from './agent-actions.repository';
import { AgentActionsService } from './agent-actions.service';
import { AgentActionOutcomes } from './use-cases/agent-action-outcomes';
import { AgentActionReader } from './use-cases/agent-action-reader';
import { AgentPolicyCheck } from './use-cases/agent-policy-check';
import { CreateAgentQuote } from './use-cases/create-agent-quote';
import { DecideAgentAction } from './use-cases/decide-agent-action';
import { SubmitAgentQuote } from './use-cases/submit-agent-quote';
import { SubmitAgentTransfer } from './use-cases/submit-agent-transfer';

/** One use case per command or query (./use-cases); AgentActionsService is their facade. */
const USE_CASES = [SubmitAgentTransfer, SubmitAgentQuote, CreateAgentQuote, DecideAgentAction, AgentActionReader, AgentActionOutcomes, AgentPolicyCheck];

/** Agents' money movements checked against their policy, their pending actions and usage. */
@Module({
  imports: [InternalAccountsModule, TransfersModule, QuotesModule, ExchangeRatesModule],
  controllers: [AgentActionsHandlers],
  providers: [AgentActionsService, AgentActionsRepository, ...USE_CASES],
  exports: [AgentActionsService],
})
export class AgentActionsModule {}
