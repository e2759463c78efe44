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
import { ApproveIncomingPayment } from './use-cases/approve-incoming-payment';
import { CancelTransaction } from './use-cases/cancel-transaction';
import { ConfirmReceipt } from './use-cases/confirm-receipt';
import { DecideByWebhook } from './use-cases/decide-by-webhook';
import { IncomingDecisions } from './use-cases/incoming-decisions';
import { IncomingPaymentJobs } from './use-cases/incoming-payment-jobs';
import { IncomingReceivers } from './use-cases/incoming-receivers';
import { IncomingTransitions } from './use-cases/incoming-transitions';
import { ReceiveSandboxPayment } from './use-cases/receive-sandbox-payment';
import { RejectIncomingPayment } from './use-cases/reject-incoming-payment';

/**
 * Incoming UMA payments and the platform's decisions, the receipt confirmation and the
 * cancellation of a payment that has not settled: one use case per command (./use-cases).
 */
const USE_CASES = [
  ReceiveSandboxPayment,
  ApproveIncomingPayment,
  RejectIncomingPayment,
  DecideByWebhook,
  ConfirmReceipt,
  CancelTransaction,
  IncomingPaymentJobs,
  IncomingDecisions,
  IncomingReceivers,
  IncomingTransitions,
];

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
  providers: [IncomingPaymentsRepository, ...USE_CASES],
})
export class IncomingPaymentsModule {}
