import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateVerificationRequest, CUSTOMERS_SUBJECTS, MessageEnvelope, Verification } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { VerificationsService } from './verifications.service';

@Controller()
export class VerificationsHandlers {
  constructor(private readonly verifications: VerificationsService) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.createVerification)
  create(@Payload(new EnvelopePipe(CreateVerificationRequest)) { ctx, payload }: MessageEnvelope<CreateVerificationRequest>): Promise<Verification> {
    return this.verifications.create(ctx, payload.customerId);
  }
}
