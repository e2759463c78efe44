import { Module } from '@nestjs/common';
import { CardsModule } from '../cards/cards.module';
import { CardNetworkHandlers } from './card-network.handlers';
import { CardNetworkService } from './card-network.service';
import { CardNetworkWorker } from './card-network.worker';
import { CardTransactionsRepository } from './card-transactions.repository';
import { LedgerClient } from './ledger.client';

/** Card transactions and the sandbox card network (the simulators run here, so they scale with the cards app). */
@Module({
  imports: [CardsModule],
  controllers: [CardNetworkHandlers],
  providers: [CardNetworkService, CardNetworkWorker, CardTransactionsRepository, LedgerClient],
})
export class CardNetworkModule {}
