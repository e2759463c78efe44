import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CallerContext, isTypedId, Page, tenantPlatformId } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { decodeCursor, pageLimit, toPage } from '@paykit/persistence';
import { Caller } from '../auth/caller.decorator';
import { CredentialsService, VERIFIED_TOKEN_TTL_MS } from '../auth/credentials.service';
import { ApiTokenEntity } from '../auth/entities/api-token.entity';
import { RequiresPermission } from '../auth/permissions';
import { BasicAuthOnly } from '../auth/public.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { ApiToken, ApiTokenDto, ApiTokenPageDto, CreateApiTokenRequest, ListApiTokensRequest, TOKEN_ID_EXAMPLE } from './tokens.dto';

const tokenCursor = {
  encode: (row: ApiTokenEntity) => row.publicId,
  decode: (key: string) => (key.startsWith('Token:') ? key : undefined),
};

function toApiToken(row: ApiTokenEntity, clientSecret?: string): ApiToken {
  return {
    id: row.publicId,
    name: row.label,
    permissions: row.permissions,
    clientId: row.id,
    ...(clientSecret === undefined ? {} : { clientSecret }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const date = (value: string | undefined): Date | undefined => (value === undefined ? undefined : new Date(value));

/**
 * The platform's API tokens: issued with a set of permissions, listed, deleted. Managing them needs
 * MANAGE, and a token manages only tokens of its own environment (a sandbox secret never lists or
 * revokes production credentials).
 */
@ApiTags('API Tokens')
@ApiBasicAuth('BasicAuth')
@BasicAuthOnly()
@RequiresPermission('MANAGE')
@Controller('tokens')
export class TokensController {
  constructor(private readonly credentials: CredentialsService) {}

  @Post()
  @ApiOperation({
    summary: 'Create an API token',
    description:
      'Issues a token of the calling platform and environment with the given permissions. `clientId` and `clientSecret` are the Basic authentication ' +
      'user name and password; the secret is answered here only (only a digest is kept).',
  })
  @ApiCreatedResponse({ type: ApiTokenDto })
  @ApiErrors(400, 401, 403)
  async create(@Body() body: CreateApiTokenRequest, @Caller() caller: CallerContext): Promise<ApiToken> {
    const issued = await this.credentials.issueToken(tenantPlatformId(caller.platformId), caller.environment, body.name, undefined, body.permissions);
    return toApiToken(issued.token, issued.secret);
  }

  @Get()
  @ApiOperation({
    summary: 'List API tokens',
    description: 'Live tokens of the platform in the calling environment, newest first, cursor-paginated; filter by name and by creation or update time.',
  })
  @ApiOkResponse({ type: ApiTokenPageDto })
  @ApiErrors(400, 401, 403)
  async list(@Query() query: ListApiTokensRequest, @Caller() caller: CallerContext): Promise<Page<ApiToken>> {
    const limit = pageLimit(query.limit);
    const before = decodeCursor(query.cursor, tokenCursor);
    const { rows, totalCount } = await this.credentials.pageTokens(tenantPlatformId(caller.platformId), caller.environment, {
      name: query.name,
      createdAfter: date(query.createdAfter),
      createdBefore: date(query.createdBefore),
      updatedAfter: date(query.updatedAfter),
      updatedBefore: date(query.updatedBefore),
      limit,
      beforePublicId: before,
    });
    return { ...toPage(rows, limit, (row) => toApiToken(row), tokenCursor), totalCount };
  }

  @Get(':tokenId')
  @ApiOperation({ summary: 'Get an API token', description: "One token of the platform (never its secret). Another platform's token id answers 404 `TOKEN_NOT_FOUND`." })
  @ApiParam({ name: 'tokenId', example: TOKEN_ID_EXAMPLE })
  @ApiOkResponse({ type: ApiTokenDto })
  @ApiErrors(401, 403, 404)
  async get(@Param('tokenId') tokenId: string, @Caller() caller: CallerContext): Promise<ApiToken> {
    return toApiToken(await this.owned(caller, tokenId));
  }

  @Delete(':tokenId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an API token',
    description: `The token stops working at once on every gateway replica (one that missed the change: within ${VERIFIED_TOKEN_TTL_MS / 1000} seconds).`,
  })
  @ApiParam({ name: 'tokenId', example: TOKEN_ID_EXAMPLE })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(400, 401, 403, 404)
  async remove(@Param('tokenId') tokenId: string, @Caller() caller: CallerContext): Promise<void> {
    const token = await this.owned(caller, tokenId);
    await this.credentials.revokeToken(token.id);
  }

  private async owned(caller: CallerContext, tokenId: string): Promise<ApiTokenEntity> {
    // Public token ids are `Token:<uuid>`: anything else is no token, answered without a query.
    const token = isTypedId(tokenId, 'Token') ? await this.credentials.findPlatformToken(tenantPlatformId(caller.platformId), caller.environment, tokenId) : null;
    if (!token) throw new ServiceError('TOKEN_NOT_FOUND', 'API token not found', { tokenId });
    return token;
  }
}
