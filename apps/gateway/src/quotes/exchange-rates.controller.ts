import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CallerContext, ExchangeRateList, ExchangeRatesQuery, QUOTES_SUBJECTS } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { ExchangeRateListResponseDto } from './dto/exchange-rate.response';

@ApiTags('Exchange Rates')
@ApiBasicAuth('BasicAuth')
@Controller('exchange-rates')
export class ExchangeRatesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @ApiOperation({
    summary: 'List exchange rates',
    description:
      'Rates per corridor (currency pair and payout rail), fees included, republished every 5 minutes (`updatedAt`). ' +
      'A sending amount (default 10000) is priced: fees come off it, the rest converts and rounds down to the smallest unit of the destination currency.',
  })
  @ApiQuery({ name: 'destinationCurrency', required: false, type: [String], style: 'form', explode: true, description: 'Repeat for several currencies' })
  @ApiOkResponse({ type: ExchangeRateListResponseDto })
  @ApiErrors(400, 401)
  list(@Query() query: ExchangeRatesQuery, @Caller() caller: CallerContext): Promise<ExchangeRateList> {
    return this.services.request(
      QUOTES_SUBJECTS.listExchangeRates,
      {
        ...(query.sourceCurrency !== undefined ? { sourceCurrency: query.sourceCurrency } : {}),
        ...(query.destinationCurrency !== undefined ? { destinationCurrency: query.destinationCurrency } : {}),
        ...(query.sendingAmount !== undefined ? { sendingAmount: query.sendingAmount } : {}),
      },
      caller,
    );
  }
}
