import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CallerContext, QUOTES_SUBJECTS, ReceiverLookup, ReceiverLookupQuery } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { ReceiverExternalAccountLookupResponseDto, ReceiverUmaLookupResponseDto } from './dto/receiver-lookup.response';

function lookupQuery(query: ReceiverLookupQuery): ReceiverLookupQuery {
  return {
    ...(query.senderUmaAddress !== undefined ? { senderUmaAddress: query.senderUmaAddress } : {}),
    ...(query.customerId !== undefined ? { customerId: query.customerId } : {}),
  };
}

@ApiTags('Cross-Currency Transfers')
@ApiBasicAuth('BasicAuth')
@Controller('receiver')
export class ReceiverLookupController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get('uma/:receiverUmaAddress')
  @ApiOperation({
    summary: 'Look up a UMA receiver',
    description:
      'What a UMA address can receive, with estimated rates from the sender currency and the payer data it asks for. A malformed address answers 400 INVALID_UMA_ADDRESS, ' +
      'an unknown one 404 UMA_NOT_FOUND. In the sandbox, $success.usd, $success.eur and $success.mxn at sandbox.uma.money succeed, $pending.long.usd stays pending about 6 minutes ' +
      "and $fail.compliance.usd fails the receiver's compliance check; customers of this deployment are reached at their own UMA address.",
  })
  @ApiParam({ name: 'receiverUmaAddress', example: '$success.mxn@sandbox.uma.money' })
  @ApiOkResponse({ type: ReceiverUmaLookupResponseDto })
  @ApiErrors(400, 401, 404)
  lookupUma(@Param('receiverUmaAddress') receiverUmaAddress: string, @Query() query: ReceiverLookupQuery, @Caller() caller: CallerContext): Promise<ReceiverLookup> {
    return this.services.request(QUOTES_SUBJECTS.lookupUmaReceiver, { receiverUmaAddress, ...lookupQuery(query) }, caller);
  }

  @Get('external-account/:accountId')
  @ApiOperation({ summary: 'Look up an external account receiver', description: 'The currency an external account receives, with an estimated rate from the sender currency.' })
  @ApiParam({ name: 'accountId', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: ReceiverExternalAccountLookupResponseDto })
  @ApiErrors(400, 401, 404)
  lookupExternalAccount(@Param('accountId') accountId: string, @Query() query: ReceiverLookupQuery, @Caller() caller: CallerContext): Promise<ReceiverLookup> {
    return this.services.request(QUOTES_SUBJECTS.lookupExternalAccountReceiver, { accountId, ...lookupQuery(query) }, caller);
  }
}
