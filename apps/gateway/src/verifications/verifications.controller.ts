import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CallerContext, CreateVerificationRequest, CUSTOMERS_SUBJECTS, Verification } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { VerificationResponseDto } from './verification.response';

@ApiTags('Customer verification')
@ApiBasicAuth('BasicAuth')
@ApiBearerAuth('AgentAuth')
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
      '3 digits of `businessInfo.registrationNumber` — `001` PENDING, `002` REJECTED, other APPROVED. Status changes fire `CUSTOMER.KYC_*` / `CUSTOMER.KYB_*` webhooks.',
  })
  @ApiOkResponse({ type: VerificationResponseDto })
  @ApiErrors(400, 401, 404)
  create(@Body() body: CreateVerificationRequest, @Caller() caller: CallerContext): Promise<Verification> {
    return this.services.request(CUSTOMERS_SUBJECTS.createVerification, { customerId: body.customerId }, caller);
  }
}
