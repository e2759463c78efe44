import { Module } from '@nestjs/common';
import { PaymentsConfigModule } from '../config/payments-config';
import { CounterpartiesModule } from '../counterparties/counterparties.module';
import { CurrenciesModule } from '../currencies/currencies.module';
import { ExchangeRatesModule } from '../exchange-rates/exchange-rates.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { LedgerModule } from '../ledger/ledger.module';
import { ReceiverLookupModule } from '../receiver-lookup/receiver-lookup.module';
import { TransfersModule } from '../transfers/transfers.module';
import { QuoteAuthorization } from './quote-authorization';
import { QuoteLedger } from './quote-ledger';
import { QuotesHandlers } from './quotes.handlers';
import { QuotesRepository } from './quotes.repository';
import { QuotesService } from './quotes.service';
import { AdvanceQuoteRefund } from './use-cases/advance-quote-refund';
import { AdvanceQuoteStep } from './use-cases/advance-quote-step';
import { CancelQuotePayment } from './use-cases/cancel-quote-payment';
import { CreateQuote } from './use-cases/create-quote';
import { DraftQuote } from './use-cases/draft-quote';
import { ExecuteQuote } from './use-cases/execute-quote';
import { ExpireQuote } from './use-cases/expire-quote';
import { QuoteExecution } from './use-cases/quote-execution';
import { QuoteExecutionRun } from './use-cases/quote-execution-run';
import { QuoteParties } from './use-cases/quote-parties';
import { QuotePricing } from './use-cases/quote-pricing';
import { QuoteReader } from './use-cases/quote-reader';
import { QuoteStepBatch } from './use-cases/quote-step-batch';
import { QuoteTransactionParts } from './use-cases/quote-transaction-parts';
import { SandboxSend } from './use-cases/sandbox-send';

/** Use cases, one command or query each (./use-cases); QuotesService is the facade other features call. */
const USE_CASES = [
  CreateQuote,
  DraftQuote,
  QuoteParties,
  QuotePricing,
  QuoteReader,
  ExecuteQuote,
  QuoteExecutionRun,
  QuoteExecution,
  QuoteTransactionParts,
  SandboxSend,
  AdvanceQuoteStep,
  AdvanceQuoteRefund,
  QuoteStepBatch,
  CancelQuotePayment,
  ExpireQuote,
];

@Module({
  imports: [PaymentsConfigModule, CurrenciesModule, CounterpartiesModule, ExchangeRatesModule, InternalAccountsModule, LedgerModule, TransfersModule, ReceiverLookupModule],
  controllers: [QuotesHandlers],
  providers: [QuotesService, QuotesRepository, QuoteLedger, QuoteAuthorization, ...USE_CASES],
  exports: [QuotesService, QuotesRepository],
})
export class QuotesModule {}
