import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CallerContext, CreateVerificationRequest, CUSTOMERS_SUBJECTS, ListVerificationsRequest, Page, Verification } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { VerificationPageDto, VerificationResponseDto } from './verification.response';

@ApiTags('KYC/KYB Verifications')
@ApiBasicAuth('BasicAuth')
@Controller('verifications')
export class VerificationsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify a customer (direct API flow)',
    description:
      'Runs KYC (individuals) or KYB (businesses). Sandbox: individuals by the last 3 characters of `fullName` — `001` IN_PROGRESS/PENDING, `002` REJECTED, ' +
      '`003` RESOLVE_ERRORS with MISSING_FIELD on `edd.*` until the enhanced due diligence fields are PATCHed, other IN_PROGRESS/APPROVED; businesses by the last ' +
      '3 digits of `businessInfo.registrationNumber` — `001` PENDING, `002` REJECTED, other APPROVED. Status changes fire `CUSTOMER.KYC_*` / `CUSTOMER.KYB_*` webhooks; every verification fires `VERIFICATION.<status>`. 410 for a deleted customer.',
  })
  @ApiOkResponse({ type: VerificationResponseDto })
  @ApiErrors(400, 401, 404, 410)
  create(@Body() body: CreateVerificationRequest, @Caller() caller: CallerContext): Promise<Verification> {
    return this.services.request(CUSTOMERS_SUBJECTS.createVerification, { customerId: body.customerId }, caller);
  }

  @Get()
  @ApiOperation({ summary: 'List verifications', description: 'Newest first, cursor-paginated; filters `customerId` and `verificationStatus`.' })
  @ApiOkResponse({ type: VerificationPageDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListVerificationsRequest, @Caller() caller: CallerContext): Promise<Page<Verification>> {
    return this.services.request(CUSTOMERS_SUBJECTS.listVerifications, query, caller);
  }

  @Get(':verificationId')
  @ApiOperation({ summary: 'Get a verification', description: "Unknown ids and other platforms' answer 404 REFERENCE_NOT_FOUND." })
  @ApiParam({ name: 'verificationId', example: 'Verification:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: VerificationResponseDto })
  @ApiErrors(401, 404)
  get(@Param('verificationId') verificationId: string, @Caller() caller: CallerContext): Promise<Verification> {
    return this.services.request(CUSTOMERS_SUBJECTS.getVerification, { verificationId }, caller);
  }
}
