import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';
import { CardNetworkModule } from './card-network/card-network.module';
import { CardTransactionEntity } from './card-network/entities/card-transaction.entity';
import { CardsModule } from './cards/cards.module';
import { CardFundingBindingEntity } from './cards/entities/card-funding-binding.entity';
import { CardEntity } from './cards/entities/card.entity';
import { CreateCards1732300600000 } from './migrations/1732300600000-CreateCards';
import { CardLimitsAndReveal1764000000000 } from './migrations/1764000000000-CardLimitsAndReveal';
import { CardRevealEntity } from './cards/entities/card-reveal.entity';

/** The cards bounded context: cards, funding-source bindings, card transactions and the sandbox card network. */
@Module({
  imports: [
    PersistenceModule.forService({
      service: 'cards',
      entities: [CardEntity, CardFundingBindingEntity, CardTransactionEntity, CardRevealEntity],
      migrations: [CreateCards1732300600000, CardLimitsAndReveal1764000000000],
    }),
    CardsModule,
    CardNetworkModule,
  ],
})
export class CardsAppModule {}
