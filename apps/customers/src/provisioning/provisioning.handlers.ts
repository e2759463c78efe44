import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CustomerProvisioning, CUSTOMERS_SUBJECTS, GetCustomerRequest, MessageEnvelope } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { ProvisioningService } from './provisioning.service';

@Controller()
export class ProvisioningHandlers {
  constructor(private readonly provisioning: ProvisioningService) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.getProvisioning)
  get(@Payload(new EnvelopePipe(GetCustomerRequest)) { ctx, payload }: MessageEnvelope<GetCustomerRequest>): Promise<CustomerProvisioning> {
    return this.provisioning.get(ctx, payload.customerId);
  }
}
