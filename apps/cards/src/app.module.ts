import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';

/** The cards bounded context: cards, funding-source bindings and card transactions. Until its features land it answers health checks only. */
@Module({
  imports: [PersistenceModule.forService({ service: 'cards', entities: [], migrations: [] })],
})
export class CardsAppModule {}
