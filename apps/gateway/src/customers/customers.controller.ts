import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CallerContext, CreateCustomerRequest, Customer, CUSTOMERS_SUBJECTS } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { CustomerResponseDto } from './dto/customer.response';

@ApiTags('Customers')
@ApiBasicAuth('BasicAuth')
@ApiBearerAuth('AgentAuth')
@Controller('customers')
export class CustomersController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a customer', description: 'Creates an individual or business customer. Unregulated platforms start it in KYC/KYB PENDING.' })
  @ApiCreatedResponse({ type: CustomerResponseDto })
  @ApiErrors(400, 401)
  create(@Body() body: CreateCustomerRequest, @Caller() caller: CallerContext): Promise<Customer> {
    return this.services.request(CUSTOMERS_SUBJECTS.createCustomer, body, caller);
  }

  @Get(':customerId')
  @ApiOperation({ summary: 'Get a customer' })
  @ApiParam({ name: 'customerId', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: CustomerResponseDto })
  @ApiErrors(401, 404)
  get(@Param('customerId') customerId: string, @Caller() caller: CallerContext): Promise<Customer> {
    return this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId }, caller);
  }
}
