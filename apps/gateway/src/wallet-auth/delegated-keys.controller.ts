import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CallerContext, CreateDelegatedKeyBody, DelegatedKey, ListDelegatedKeysQuery, SignedRetryInput, SignedRetryOutcome, WALLET_AUTH_SUBJECTS } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { SignedAction, SignedRetry } from '../http/signed-action.decorator';
import { DelegatedKeyDto, DelegatedKeyListDto } from './dto/wallet-auth.response';

const DELEGATED_KEY_ID = { name: 'id', description: 'Delegated key id', example: 'DelegatedKey:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' };

@ApiTags('Embedded Wallet Auth')
@ApiBasicAuth('BasicAuth')
@Controller('auth/delegated-keys')
export class DelegatedKeysController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Delegate signing for a card funding source to a key the service holds',
    description:
      'Three legs with the same body. The first call answers 202 with a challenge; its signed retry (a session of the funding account) ' +
      'generates the key, held PENDING, and answers a second 202; signing that one activates the key (201, ACTIVE). ' +
      'One ACTIVE key per card funding source (409 otherwise). The private key is never returned.',
  })
  @ApiCreatedResponse({ type: DelegatedKeyDto })
  @SignedAction()
  @ApiErrors(400, 401, 404, 409)
  create(@Body() body: CreateDelegatedKeyBody, @Caller() caller: CallerContext, @SignedRetry() signedRetry: SignedRetryInput): Promise<SignedRetryOutcome<DelegatedKey>> {
    return this.services.request(
      WALLET_AUTH_SUBJECTS.createDelegatedKey,
      { cardId: body.cardId, internalAccountId: body.internalAccountId, nickname: body.nickname, signedRetry },
      caller,
    );
  }

  @Get()
  @ApiOperation({ summary: 'List delegated keys', description: 'By internal account, card funding source or both (one of them is required); PENDING and REVOKED keys included.' })
  @ApiOkResponse({ type: DelegatedKeyListDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListDelegatedKeysQuery, @Caller() caller: CallerContext): Promise<{ data: DelegatedKey[] }> {
    return this.services.request(WALLET_AUTH_SUBJECTS.listDelegatedKeys, { accountId: query.accountId, fundingSourceId: query.fundingSourceId }, caller);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a delegated key' })
  @ApiParam(DELEGATED_KEY_ID)
  @ApiOkResponse({ type: DelegatedKeyDto })
  @ApiErrors(401, 404)
  get(@Param('id') id: string, @Caller() caller: CallerContext): Promise<DelegatedKey> {
    return this.services.request(WALLET_AUTH_SUBJECTS.getDelegatedKey, { delegatedKeyId: id }, caller);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a delegated key', description: 'The key can no longer sign. Only an ACTIVE key can be revoked (400 otherwise).' })
  @ApiParam(DELEGATED_KEY_ID)
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrors(400, 401, 404)
  async revoke(@Param('id') id: string, @Caller() caller: CallerContext): Promise<void> {
    // A 204: the service's acknowledgement carries nothing to answer.
    await this.services.request(WALLET_AUTH_SUBJECTS.revokeDelegatedKey, { delegatedKeyId: id }, caller);
  }
}
