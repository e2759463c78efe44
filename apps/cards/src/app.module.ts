import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';
import { CardNetworkModule } from './card-network/card-network.module';
import { CardTransactionEntity } from './card-network/entities/card-transaction.entity';
import { CardsModule } from './cards/cards.module';
import { CardFundingBindingEntity } from './cards/entities/card-funding-binding.entity';
import { CardEntity } from './cards/entities/card.entity';
import { CreateCards1732300600000 } from './migrations/1732300600000-CreateCards';

/** The cards bounded context: cards, funding-source bindings, card transactions and the sandbox card network. */
@Module({
  imports: [
    PersistenceModule.forService({
      service: 'cards',
      entities: [CardEntity, CardFundingBindingEntity, CardTransactionEntity],
      migrations: [CreateCards1732300600000],
    }),
    CardsModule,
    CardNetworkModule,
  ],
})
export class CardsAppModule {}
