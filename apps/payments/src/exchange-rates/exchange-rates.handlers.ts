import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ExchangeRateList, ExchangeRatesQuery, MessageEnvelope, QUOTES_SUBJECTS } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { ExchangeRatesService } from './exchange-rates.service';

@Controller()
export class ExchangeRatesHandlers {
  constructor(private readonly rates: ExchangeRatesService) {}

  @MessagePattern(QUOTES_SUBJECTS.listExchangeRates)
  list(@Payload(new EnvelopePipe(ExchangeRatesQuery)) { ctx, payload }: MessageEnvelope<ExchangeRatesQuery>): Promise<ExchangeRateList> {
    return this.rates.list(ctx, payload);
  }
}
