import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  ClaimInvitationRequest,
  CreateInvitationRequest,
  DIRECTORY_SUBJECTS,
  EstimateWithdrawalFeeRequest,
  Invitation,
  ListUmaProvidersQuery,
  ListVaspsQuery,
  UmaProviderPage,
  VaspPage,
  WithdrawalFeeEstimate,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { InvitationResponseDto, UmaProviderListResponseDto, VaspListResponseDto, WithdrawalFeeEstimateDto } from './dto/directory.response';

@ApiTags('Available UMA Providers')
@ApiBasicAuth('BasicAuth')
@Controller('uma-providers')
export class UmaProvidersController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @ApiOperation({
    summary: 'List UMA providers',
    description: 'From the directory (the sandbox one, or the operator’s DIRECTORY_FILE), filtered by country, currency and allow-list status; by name.',
  })
  @ApiOkResponse({ type: UmaProviderListResponseDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListUmaProvidersQuery, @Caller() caller: CallerContext): Promise<UmaProviderPage> {
    return this.services.request(
      DIRECTORY_SUBJECTS.listUmaProviders,
      {
        ...(query.countryCode !== undefined ? { countryCode: query.countryCode } : {}),
        ...(query.currencyCode !== undefined ? { currencyCode: query.currencyCode } : {}),
        ...(query.hasBlockedProviders !== undefined ? { hasBlockedProviders: query.hasBlockedProviders } : {}),
        ...(query.sortOrder !== undefined ? { sortOrder: query.sortOrder } : {}),
        ...(query.limit !== undefined ? { limit: query.limit } : {}),
        ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
      },
      caller,
    );
  }
}

@ApiTags('VASPs')
@ApiBasicAuth('BasicAuth')
@Controller('vasps')
export class VaspsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @ApiOperation({ summary: 'List VASPs', description: 'Virtual asset service providers crypto can be withdrawn to, from the directory; by name.' })
  @ApiOkResponse({ type: VaspListResponseDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListVaspsQuery, @Caller() caller: CallerContext): Promise<VaspPage> {
    return this.services.request(
      DIRECTORY_SUBJECTS.listVasps,
      { ...(query.limit !== undefined ? { limit: query.limit } : {}), ...(query.cursor !== undefined ? { cursor: query.cursor } : {}) },
      caller,
    );
  }
}

@ApiTags('Cross-Currency Transfers')
@ApiBasicAuth('BasicAuth')
@Controller('crypto')
export class CryptoController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('estimate-withdrawal-fee')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Estimate a crypto withdrawal fee',
    description: "The network's fee for the currency and network plus the service's fee (rounded up), and what arrives.",
  })
  @ApiOkResponse({ type: WithdrawalFeeEstimateDto })
  @ApiErrors(400, 401, 404)
  estimate(@Body() body: EstimateWithdrawalFeeRequest, @Caller() caller: CallerContext): Promise<WithdrawalFeeEstimate> {
    return this.services.request(
      DIRECTORY_SUBJECTS.estimateWithdrawalFee,
      { internalAccountId: body.internalAccountId, currency: body.currency, cryptoNetwork: body.cryptoNetwork, amount: body.amount, destinationAddress: body.destinationAddress },
      caller,
    );
  }
}

@ApiTags('Invitations')
@ApiBasicAuth('BasicAuth')
@Controller('invitations')
export class InvitationsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an invitation',
    description: 'A customer of the platform (by its UMA address) invites someone; the code is valid until expiresAt (default 30 days).',
  })
  @ApiCreatedResponse({ type: InvitationResponseDto })
  @ApiErrors(400, 401)
  create(@Body() body: CreateInvitationRequest, @Caller() caller: CallerContext): Promise<Invitation> {
    return this.services.request(
      DIRECTORY_SUBJECTS.createInvitation,
      {
        inviterUma: body.inviterUma,
        ...(body.firstName !== undefined ? { firstName: body.firstName } : {}),
        ...(body.amountToSend !== undefined ? { amountToSend: body.amountToSend } : {}),
        ...(body.expiresAt !== undefined ? { expiresAt: body.expiresAt } : {}),
      },
      caller,
    );
  }

  @Get(':invitationCode')
  @ApiOperation({ summary: 'Get an invitation' })
  @ApiParam({ name: 'invitationCode', example: 'K7M2Q9X4PA' })
  @ApiOkResponse({ type: InvitationResponseDto })
  @ApiErrors(401, 404)
  get(@Param('invitationCode') code: string, @Caller() caller: CallerContext): Promise<Invitation> {
    return this.services.request(DIRECTORY_SUBJECTS.getInvitation, { code }, caller);
  }

  @Post(':invitationCode/claim')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Claim an invitation',
    description:
      'The invitee (by its UMA address) claims a PENDING invitation, once; the inviting platform gets INVITATION.CLAIMED. A claimed, cancelled or expired one answers 400.',
  })
  @ApiParam({ name: 'invitationCode', example: 'K7M2Q9X4PA' })
  @ApiOkResponse({ type: InvitationResponseDto })
  @ApiErrors(400, 401, 404)
  claim(@Param('invitationCode') code: string, @Body() body: ClaimInvitationRequest, @Caller() caller: CallerContext): Promise<Invitation> {
    return this.services.request(DIRECTORY_SUBJECTS.claimInvitation, { code, inviteeUma: body.inviteeUma }, caller);
  }

  @Post(':invitationCode/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel an invitation', description: 'A PENDING invitation is cancelled; a claimed one answers 400 INVITATION_ALREADY_CLAIMED.' })
  @ApiParam({ name: 'invitationCode', example: 'K7M2Q9X4PA' })
  @ApiOkResponse({ type: InvitationResponseDto })
  @ApiErrors(400, 401, 403, 404)
  cancel(@Param('invitationCode') code: string, @Caller() caller: CallerContext): Promise<Invitation> {
    return this.services.request(DIRECTORY_SUBJECTS.cancelInvitation, { code }, caller);
  }
}
