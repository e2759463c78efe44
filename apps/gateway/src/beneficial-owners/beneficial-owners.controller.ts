import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BeneficialOwner, CallerContext, CreateBeneficialOwnerRequest, CUSTOMERS_SUBJECTS, ListBeneficialOwnersRequest, Page, UpdateBeneficialOwnerBody } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { BeneficialOwnerPageDto, BeneficialOwnerResponseDto } from './dto/beneficial-owner.response';

@ApiTags('KYC/KYB Verifications')
@ApiBasicAuth('BasicAuth')
@Controller('beneficial-owners')
export class BeneficialOwnersController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Register a beneficial owner, director or officer of a business customer',
    description: 'Their KYC runs on registration. Sandbox: last 3 characters of `personalInfo.lastName` — `001` PENDING, `002` REJECTED, other APPROVED.',
  })
  @ApiCreatedResponse({ type: BeneficialOwnerResponseDto })
  @ApiErrors(400, 401, 404)
  create(@Body() body: CreateBeneficialOwnerRequest, @Caller() caller: CallerContext): Promise<BeneficialOwner> {
    return this.services.request(CUSTOMERS_SUBJECTS.createBeneficialOwner, body, caller);
  }

  @Get()
  @ApiOperation({ summary: 'List beneficial owners, directors and officers', description: 'Newest first, cursor-paginated; filter by `customerId`.' })
  @ApiOkResponse({ type: BeneficialOwnerPageDto })
  @ApiErrors(400, 401, 404)
  list(@Query() query: ListBeneficialOwnersRequest, @Caller() caller: CallerContext): Promise<Page<BeneficialOwner>> {
    return this.services.request(CUSTOMERS_SUBJECTS.listBeneficialOwners, query, caller);
  }

  @Get(':beneficialOwnerId')
  @ApiOperation({ summary: 'Get a beneficial owner, director or officer' })
  @ApiParam({ name: 'beneficialOwnerId', example: 'BeneficialOwner:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: BeneficialOwnerResponseDto })
  @ApiErrors(401, 404)
  get(@Param('beneficialOwnerId') beneficialOwnerId: string, @Caller() caller: CallerContext): Promise<BeneficialOwner> {
    return this.services.request(CUSTOMERS_SUBJECTS.getBeneficialOwner, { beneficialOwnerId }, caller);
  }

  @Patch(':beneficialOwnerId')
  @ApiOperation({
    summary: 'Update a beneficial owner, director or officer',
    description:
      'Only the given fields change (personalInfo field by field; an address is replaced whole). A new last name is a new identity to check: in the sandbox its KYC is decided again from it.',
  })
  @ApiParam({ name: 'beneficialOwnerId', example: 'BeneficialOwner:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: BeneficialOwnerResponseDto })
  @ApiErrors(400, 401, 404, 410)
  update(@Param('beneficialOwnerId') beneficialOwnerId: string, @Body() body: UpdateBeneficialOwnerBody, @Caller() caller: CallerContext): Promise<BeneficialOwner> {
    return this.services.request(CUSTOMERS_SUBJECTS.updateBeneficialOwner, { beneficialOwnerId, changes: body }, caller);
  }
}
