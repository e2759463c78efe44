import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateCustomerRequest, Customer, CUSTOMERS_SUBJECTS, GetCustomerRequest, MessageEnvelope } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { CustomersService } from './customers.service';

@Controller()
export class CustomersHandlers {
  constructor(private readonly customers: CustomersService) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.createCustomer)
  create(@Payload(new EnvelopePipe(CreateCustomerRequest)) { ctx, payload }: MessageEnvelope<CreateCustomerRequest>): Promise<Customer> {
    return this.customers.create(ctx, payload);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.getCustomer)
  get(@Payload(new EnvelopePipe(GetCustomerRequest)) { ctx, payload }: MessageEnvelope<GetCustomerRequest>): Promise<Customer> {
    return this.customers.get(ctx, payload.customerId);
  }
}
