import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CheckRequirementsRequest,
  CreateCustomerRequest,
  Customer,
  CustomerRequirements,
  CUSTOMERS_SUBJECTS,
  EndUserTerms,
  GetCustomerRequest,
  ListCustomersRequest,
  MessageEnvelope,
  Page,
  SignedRetryOutcome,
  UpdateCustomerRequest,
} from '@paykit/contracts';
import { CallerContextPipe, EnvelopePipe } from '@paykit/transport';
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

  @MessagePattern(CUSTOMERS_SUBJECTS.listCustomers)
  list(@Payload(new EnvelopePipe(ListCustomersRequest)) { ctx, payload }: MessageEnvelope<ListCustomersRequest>): Promise<Page<Customer>> {
    return this.customers.list(ctx, payload);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.updateCustomer)
  update(@Payload(new EnvelopePipe(UpdateCustomerRequest)) { ctx, payload }: MessageEnvelope<UpdateCustomerRequest>): Promise<SignedRetryOutcome<Customer>> {
    return this.customers.update(ctx, payload);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.deleteCustomer)
  delete(@Payload(new EnvelopePipe(GetCustomerRequest)) { ctx, payload }: MessageEnvelope<GetCustomerRequest>): Promise<Customer> {
    return this.customers.delete(ctx, payload.customerId);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.getEndUserTerms)
  endUserTerms(@Payload(new CallerContextPipe()) _envelope: MessageEnvelope<unknown>): EndUserTerms {
    return this.customers.endUserTerms();
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.checkRequirements)
  checkRequirements(@Payload(new EnvelopePipe(CheckRequirementsRequest)) { ctx, payload }: MessageEnvelope<CheckRequirementsRequest>): Promise<CustomerRequirements> {
    return this.customers.checkRequirements(ctx, payload);
  }
}
