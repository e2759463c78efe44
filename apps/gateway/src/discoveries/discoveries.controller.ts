import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CallerContext, DiscoveryEntry, DiscoveryList, EXTERNAL_ACCOUNTS_SUBJECTS, ListDiscoveriesQuery } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';

class DiscoveryEntryDto implements DiscoveryEntry {
  @ApiProperty({ description: 'Exact value to send as accountInfo.bankName', example: 'BDO Unibank' }) bankName!: string;
  @ApiProperty({ description: 'Label for users', example: 'BDO Unibank, Inc.' }) displayName!: string;
  @ApiProperty({ description: 'ISO 3166-1 alpha-2', example: 'PH' }) country!: string;
  @ApiProperty({ example: 'PHP' }) currency!: string;
}

class DiscoveryListDto implements DiscoveryList {
  @ApiProperty({ type: [DiscoveryEntryDto] }) data!: DiscoveryEntryDto[];
}

@ApiTags('External accounts')
@ApiBasicAuth('BasicAuth')
@Controller('discoveries')
export class DiscoveriesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @ApiOperation({
    summary: 'Discover valid bank names',
    description:
      'Banks and mobile-money providers per corridor. Corridors PHP, NGN, ZAR, COP and SLV (country SV, currency USD) require accountInfo.bankName ' +
      'to be exactly one of these bankName values; MXN and BRL entries are offered as guidance.',
  })
  @ApiOkResponse({ type: DiscoveryListDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListDiscoveriesQuery, @Caller() caller: CallerContext): Promise<DiscoveryList> {
    return this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.listDiscoveries, { country: query.country, currency: query.currency }, caller);
  }
}
