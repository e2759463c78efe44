import { Module } from '@nestjs/common';
import { CardsModule } from '../cards/cards.module';
import { CardNetworkHandlers } from './card-network.handlers';
import { CardNetworkWorker } from './card-network.worker';
import { CardTransactionsHandlers } from './card-transactions.handlers';
import { CardTransactionsRepository } from './card-transactions.repository';
import { LedgerClient } from './ledger.client';
import { ApplyAdvice } from './use-cases/apply-advice';
import { AuthorizationJobs } from './use-cases/authorization-jobs';
import { AuthorizeCard } from './use-cases/authorize-card';
import { CardTransactionReader } from './use-cases/card-transaction-reader';
import { CardTransactionWriter } from './use-cases/card-transaction-writer';
import { CompleteDelayedPull } from './use-cases/complete-delayed-pull';
import { IssuerMoney } from './use-cases/issuer-money';
import { NetworkRules } from './use-cases/issuer-rules';
import { ReconcileClosedCard } from './use-cases/reconcile-closed-card';
import { SimulateAdvice } from './use-cases/simulate-advice';
import { SimulateAuthorization } from './use-cases/simulate-authorization';
import { SimulateAuthorizationAdvice } from './use-cases/simulate-authorization-advice';
import { SimulateBalanceInquiry } from './use-cases/simulate-balance-inquiry';
import { SimulateClearing } from './use-cases/simulate-clearing';
import { SimulateReturn } from './use-cases/simulate-return';
import { SimulateReturnReversal } from './use-cases/simulate-return-reversal';

/**
 * The sandbox card network's simulators (Simulate*: what the network sends) and the issuer's
 * answers (AuthorizeCard, IssuerMoney and the worker's steps), one use case per file.
 */
const USE_CASES = [
  SimulateAuthorization,
  SimulateBalanceInquiry,
  SimulateAuthorizationAdvice,
  SimulateAdvice,
  SimulateClearing,
  SimulateReturn,
  SimulateReturnReversal,
  AuthorizeCard,
  IssuerMoney,
  AuthorizationJobs,
  CompleteDelayedPull,
  ReconcileClosedCard,
  ApplyAdvice,
  CardTransactionReader,
  CardTransactionWriter,
  NetworkRules,
];

/** Card transactions and the sandbox card network (the simulators run here, so they scale with the cards app). */
@Module({
  imports: [CardsModule],
  controllers: [CardTransactionsHandlers, CardNetworkHandlers],
  providers: [CardNetworkWorker, CardTransactionsRepository, LedgerClient, ...USE_CASES],
})
export class CardNetworkModule {}
