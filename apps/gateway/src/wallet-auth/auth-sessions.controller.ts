import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthSession, CallerContext, Empty, ListByAccountQuery, RefreshSessionBody, SignedRetryInput, SignedRetryOutcome, WALLET_AUTH_SUBJECTS } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { SignedAction, SignedRetry } from '../http/signed-action.decorator';
import { AuthSessionDto, AuthSessionListDto, AuthSignedRetryChallengeDto } from './dto/wallet-auth.response';

const SESSION_ID = { name: 'id', description: 'Session id', example: 'Session:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' };

@ApiTags('Embedded Wallet Auth')
@ApiBasicAuth('BasicAuth')
@Controller('auth/sessions')
export class AuthSessionsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @ApiOperation({ summary: "List an account's active sessions", description: 'Unexpired, unrevoked sessions; never includes the sealed session key. Not paginated.' })
  @ApiOkResponse({ type: AuthSessionListDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListByAccountQuery, @Caller() caller: CallerContext): Promise<{ data: AuthSession[] }> {
    return this.services.request(WALLET_AUTH_SUBJECTS.listSessions, { accountId: query.accountId }, caller);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a session', description: 'Signed retry: 202 challenge, then 204.' })
  @ApiParam(SESSION_ID)
  @ApiNoContentResponse({ description: 'Revoked' })
  @SignedAction({ challenge: AuthSignedRetryChallengeDto })
  @ApiErrors(401, 404)
  revoke(@Param('id') id: string, @Caller() caller: CallerContext, @SignedRetry() signedRetry: SignedRetryInput): Promise<SignedRetryOutcome<Empty>> {
    return this.services.request(WALLET_AUTH_SUBJECTS.revokeSession, { sessionId: id, signedRetry }, caller);
  }

  @Post(':id/refresh')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Refresh a session',
    description:
      'Signed retry: 202 challenge, then 201 with a new session; the refreshed session ends. A compressed clientPublicKey becomes the session key (the client holds it; nothing is returned); ' +
      'an uncompressed one gets a service-generated key sealed to it (encryptedSessionSigningKey).',
  })
  @ApiParam(SESSION_ID)
  @ApiCreatedResponse({ type: AuthSessionDto })
  @SignedAction()
  @ApiErrors(400, 401, 404)
  refresh(
    @Param('id') id: string,
    @Body() body: RefreshSessionBody,
    @Caller() caller: CallerContext,
    @SignedRetry() signedRetry: SignedRetryInput,
  ): Promise<SignedRetryOutcome<AuthSession>> {
    return this.services.request(WALLET_AUTH_SUBJECTS.refreshSession, { sessionId: id, clientPublicKey: body.clientPublicKey, signedRetry }, caller);
  }
}
