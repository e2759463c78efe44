import { Module } from '@nestjs/common';
import { CardsHandlers } from './cards.handlers';
import { CardsRepository } from './cards.repository';
import { CardsService } from './cards.service';
import { FundingSourcesService } from './funding-sources.service';

@Module({
  controllers: [CardsHandlers],
  providers: [CardsService, CardsRepository, FundingSourcesService],
  exports: [CardsRepository],
})
export class CardsModule {}
