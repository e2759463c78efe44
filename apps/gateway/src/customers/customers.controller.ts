import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  BULK_CSV_COLUMN_ALIASES,
  BULK_CSV_COLUMNS,
  BULK_CSV_MAX_BYTES,
  BulkImportJob,
  CallerContext,
  ContactChannel,
  ContactCodeBody,
  ContactCodeSent,
  CreateCustomerRequest,
  Customer,
  CustomerProvisioning,
  CUSTOMERS_SUBJECTS,
  KycLinkBody,
  ListCustomersRequest,
  Page,
  SignedRetryInput,
  SignedRetryOutcome,
  UpdateCustomerBody,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { RequiresPermission } from '../auth/permissions';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { multipartReadError } from '../http/edge-errors';
import { SignedAction, SignedRetry } from '../http/signed-action.decorator';
import { importCustomersCsv } from './customers-csv-import';
import { BulkImportJobDto, ContactCodeSentDto, CustomerPageDto, CustomerProvisioningDto, CustomerResponseDto, EndUserTermsDto, KycLinkResponseDto } from './dto/customer.response';

const CUSTOMER_ID_PARAM = { name: 'customerId', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' };

class BulkCsvUploadDto {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description:
      `UTF-8 CSV under 100 MB with a header row; columns (any order, empty cell = absent): ${BULK_CSV_COLUMNS.join(', ')}. sourceOfWealthCategories separates values with \`;\`. ` +
      `The reference's column names are accepted too: ${Object.entries(BULK_CSV_COLUMN_ALIASES)
        .map(([column, field]) => (field ? `${column} (${field})` : `${column} (ignored)`))
        .join(', ')}.`,
  })
  file!: unknown;
}

const CONTACT_SEND_DESCRIPTION =
  "Sends a one-time code (valid 10 minutes); re-POST resends, at most once every 30 s (else 429 with Retry-After). 409 CONFLICT (`details.reason` CONTACT_VERIFICATION_NOT_REQUIRED) when the customer's " +
  'provider does not require this channel. Sandbox: required for an email whose local part ends in `+verify` and a phone number ending in `0000`; nothing is delivered and the code is `000000`.';
const CONTACT_CONFIRM_DESCRIPTION =
  'A right code moves the channel to VERIFIED and answers the Customer; a wrong, expired or unsent code answers 400 INVALID_INPUT (`details.reason` INVALID_VERIFICATION_CODE) and changes nothing ' +
  '(after 5 wrong codes a new one must be requested).';

@ApiTags('Customers')
@ApiBasicAuth('BasicAuth')
@Controller('customers')
export class CustomersController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @RequiresPermission('MANAGE')
  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a customer',
    description:
      'Creates an individual or business customer. Customers of regulated platforms start APPROVED (or the `kycStatus`/`kybStatus` they state); others ' +
      "start KYC/KYB PENDING (`CUSTOMER.KYC_PENDING` / `CUSTOMER.KYB_PENDING` webhook). Without `umaAddress` one is generated on the platform's UMA domain; " +
      "a bad one answers 400 INVALID_UMA_ADDRESS, one already taken 409 UMA_ADDRESS_EXISTS. `currencies` must be among the platform's supportedCurrencies; " +
      '`endUserTermsConsent.termsVersion` a published version (else 400 END_USER_TERMS_VERSION_NOT_FOUND).',
  })
  @ApiCreatedResponse({ type: CustomerResponseDto })
  @ApiErrors(400, 401, 409)
  create(@Body() body: CreateCustomerRequest, @Caller() caller: CallerContext): Promise<Customer> {
    return this.services.request(CUSTOMERS_SUBJECTS.createCustomer, body, caller);
  }

  @Get()
  @ApiOperation({
    summary: 'List customers',
    description:
      'Newest first, cursor-paginated (`limit`, `cursor`). Filters: type, KYC/KYB status, `platformCustomerId` (the platform-id lookup; several customers may share one) and a creation range.',
  })
  @ApiOkResponse({ type: CustomerPageDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListCustomersRequest, @Caller() caller: CallerContext): Promise<Page<Customer>> {
    return this.services.request(CUSTOMERS_SUBJECTS.listCustomers, query, caller);
  }

  @RequiresPermission('MANAGE')
  @Post('bulk/csv')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Import customers from a CSV file',
    description:
      'multipart/form-data with one `file` part. The file is parsed as it streams in; each row is validated like POST /customers. Bad rows are reported ' +
      'per row (row number, field, message) and never stop the good ones; a malformed file (broken CSV, not UTF-8, 100 MB or more, unknown columns) fails ' +
      'the job. Answers the job once the upload is read; `BULK_UPLOAD.COMPLETED` or `BULK_UPLOAD.FAILED` is announced by webhook with the job as data.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: BulkCsvUploadDto })
  @ApiResponse({ status: 202, type: BulkImportJobDto })
  @ApiErrors(400, 401, 415)
  async importCsv(@Req() request: FastifyRequest, @Caller() caller: CallerContext): Promise<BulkImportJob> {
    if (!request.isMultipart()) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'Upload the CSV as multipart/form-data with a `file` part');
    // Larger files are cut at the limit; the import then fails the job with a clear reason.
    const file = await request.file({ limits: { fileSize: BULK_CSV_MAX_BYTES, files: 1 } }).catch((error: unknown) => {
      throw multipartReadError(error);
    });
    if (!file) throw ServiceError.invalidField('file', 'file is required');
    return importCustomersCsv(this.services, caller, file.filename || undefined, file.file);
  }

  @Get('bulk/jobs/:jobId')
  @ApiOperation({ summary: 'Get a bulk import job', description: 'Progress, counts and per-row errors (first 1000; `errorCount` counts all).' })
  @ApiParam({ name: 'jobId', example: 'BulkUploadJob:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: BulkImportJobDto })
  @ApiErrors(401, 404)
  getBulkJob(@Param('jobId') jobId: string, @Caller() caller: CallerContext): Promise<BulkImportJob> {
    return this.services.request(CUSTOMERS_SUBJECTS.getBulkImport, { jobId }, caller);
  }

  @Get('end-user-terms')
  @ApiOperation({
    summary: 'Get the current end user terms',
    description: 'The version in force (send it as `endUserTermsConsent.termsVersion` on POST or PATCH /customers) and the address of its published text.',
  })
  @ApiOkResponse({ type: EndUserTermsDto })
  @ApiErrors(401)
  async endUserTerms(@Req() request: FastifyRequest, @Caller() caller: CallerContext): Promise<EndUserTermsDto> {
    const terms = await this.services.request(CUSTOMERS_SUBJECTS.getEndUserTerms, {}, caller);
    return { version: terms.version, url: `${request.protocol}://${request.headers.host}${terms.url}` };
  }

  @Get(':customerId')
  @ApiOperation({ summary: 'Get a customer', description: 'A deleted customer is still returned, with `isDeleted: true`.' })
  @ApiParam(CUSTOMER_ID_PARAM)
  @ApiOkResponse({ type: CustomerResponseDto })
  @ApiErrors(401, 404)
  get(@Param('customerId') customerId: string, @Caller() caller: CallerContext): Promise<Customer> {
    return this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId }, caller);
  }

  @Get(':customerId/provisioning')
  @ApiOperation({
    summary: "Whether a customer's accounts and wallet exist yet",
    description:
      'A new customer (POST /customers or a bulk import) gets its internal accounts, one per supported currency, and, with an email on a platform with embedded wallets and USDC, ' +
      'an embedded wallet with its EMAIL_OTP credential, shortly after it is created. `status` is READY once all of them exist: fund its accounts or issue cards from then on. ' +
      'Not a sandbox route: it answers the same in production.',
  })
  @ApiParam(CUSTOMER_ID_PARAM)
  @ApiOkResponse({ type: CustomerProvisioningDto })
  @ApiErrors(401, 404)
  provisioning(@Param('customerId') customerId: string, @Caller() caller: CallerContext): Promise<CustomerProvisioning> {
    return this.services.request(CUSTOMERS_SUBJECTS.getProvisioning, { customerId }, caller);
  }

  @RequiresPermission('MANAGE')
  @Patch(':customerId')
  @ApiOperation({
    summary: 'Update a customer',
    description:
      "The body carries `customerType` (must be the customer's) and the fields to change, with the same rules as POST /customers. Use it to complete the " +
      'fields a currency requires (`providerRequiredCustomerFields` of GET /config) and the enhanced due diligence fields a verification asked for. ' +
      'A changed email or phone needs verifying again when the provider requires it. ' +
      'When the email is tied to embedded wallet EMAIL_OTP credentials, changing it is a signed action: 202 challenge, then the signed retry ' +
      'updates the customer, and the tied credentials follow.',
  })
  @ApiParam(CUSTOMER_ID_PARAM)
  @ApiOkResponse({ type: CustomerResponseDto })
  @SignedAction()
  @ApiErrors(400, 401, 404, 409, 410)
  update(
    @Param('customerId') customerId: string,
    @Body() body: UpdateCustomerBody,
    @Caller() caller: CallerContext,
    @SignedRetry() signedRetry: SignedRetryInput,
  ): Promise<SignedRetryOutcome<Customer>> {
    return this.services.request(CUSTOMERS_SUBJECTS.updateCustomer, { customerId, changes: body, signedRetry }, caller);
  }

  @RequiresPermission('MANAGE')
  @Delete(':customerId')
  @ApiOperation({
    summary: 'Delete a customer',
    description:
      'Flags the customer deleted and answers it with `isDeleted: true`; it stays readable by id, leaves lists (unless `isIncludingDeleted=true`), and can no ' +
      'longer be changed, verified, used for payments or given a new external account or card (410 CUSTOMER_DELETED, also for a second ' +
      'delete); what it already holds stays readable. The deletion is announced to the other services (event `customers.events.customer.deleted`).',
  })
  @ApiParam(CUSTOMER_ID_PARAM)
  @ApiOkResponse({ type: CustomerResponseDto })
  @ApiErrors(401, 404, 410)
  delete(@Param('customerId') customerId: string, @Caller() caller: CallerContext): Promise<Customer> {
    return this.services.request(CUSTOMERS_SUBJECTS.deleteCustomer, { customerId }, caller);
  }

  @RequiresPermission('MANAGE')
  @Post(':customerId/kyc-link')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a hosted KYC link',
    description:
      'A fresh single-use link to the hosted verification page (`GET /kyc/{token}`, outside the versioned base path), valid 24 hours; earlier links stay ' +
      'valid. The page completes the verification (sandbox tables as POST /verifications) and redirects the browser to `redirectUri` (without one, it ends on ' +
      'its own message). `provider` is `HOSTED` (the service runs the page). 409 CONFLICT while a required contact channel is not VERIFIED.',
  })
  @ApiParam(CUSTOMER_ID_PARAM)
  @ApiCreatedResponse({ type: KycLinkResponseDto })
  @ApiErrors(400, 401, 404, 409, 410)
  async kycLink(
    @Param('customerId') customerId: string,
    @Body() body: KycLinkBody = {},
    @Req() request: FastifyRequest,
    @Caller() caller: CallerContext,
  ): Promise<KycLinkResponseDto> {
    const link = await this.services.request(CUSTOMERS_SUBJECTS.createKycLink, { customerId, redirectUri: body?.redirectUri }, caller);
    return { kycUrl: `${request.protocol}://${request.headers.host}/kyc/${link.token}`, expiresAt: link.expiresAt, provider: 'HOSTED', token: link.token };
  }

  @RequiresPermission('MANAGE')
  @Post(':customerId/verify-email')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send an email verification code', description: CONTACT_SEND_DESCRIPTION })
  @ApiParam(CUSTOMER_ID_PARAM)
  @ApiOkResponse({ type: ContactCodeSentDto })
  @ApiErrors(401, 404, 409, 429)
  sendEmailCode(@Param('customerId') customerId: string, @Caller() caller: CallerContext): Promise<ContactCodeSent> {
    return this.sendCode(customerId, 'email', caller);
  }

  @RequiresPermission('MANAGE')
  @Post(':customerId/verify-email/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm the email verification code', description: CONTACT_CONFIRM_DESCRIPTION })
  @ApiParam(CUSTOMER_ID_PARAM)
  @ApiOkResponse({ type: CustomerResponseDto })
  @ApiErrors(400, 401, 404, 409)
  confirmEmail(@Param('customerId') customerId: string, @Body() body: ContactCodeBody, @Caller() caller: CallerContext): Promise<Customer> {
    return this.services.request(CUSTOMERS_SUBJECTS.confirmContactCode, { customerId, channel: 'email', code: body.code }, caller);
  }

  @RequiresPermission('MANAGE')
  @Post(':customerId/verify-phone')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a phone verification code', description: CONTACT_SEND_DESCRIPTION })
  @ApiParam(CUSTOMER_ID_PARAM)
  @ApiOkResponse({ type: ContactCodeSentDto })
  @ApiErrors(401, 404, 409, 429)
  sendPhoneCode(@Param('customerId') customerId: string, @Caller() caller: CallerContext): Promise<ContactCodeSent> {
    return this.sendCode(customerId, 'phone', caller);
  }

  @RequiresPermission('MANAGE')
  @Post(':customerId/verify-phone/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm the phone verification code', description: CONTACT_CONFIRM_DESCRIPTION })
  @ApiParam(CUSTOMER_ID_PARAM)
  @ApiOkResponse({ type: CustomerResponseDto })
  @ApiErrors(400, 401, 404, 409)
  confirmPhone(@Param('customerId') customerId: string, @Body() body: ContactCodeBody, @Caller() caller: CallerContext): Promise<Customer> {
    return this.services.request(CUSTOMERS_SUBJECTS.confirmContactCode, { customerId, channel: 'phone', code: body.code }, caller);
  }

  private sendCode(customerId: string, channel: ContactChannel, caller: CallerContext): Promise<ContactCodeSent> {
    return this.services.request(CUSTOMERS_SUBJECTS.sendContactCode, { customerId, channel }, caller);
  }
}
