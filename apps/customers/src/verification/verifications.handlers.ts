import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateVerificationRequest, CUSTOMERS_SUBJECTS, GetVerificationRequest, ListVerificationsRequest, MessageEnvelope, Page, Verification } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { VerificationsService } from './verifications.service';

@Controller()
export class VerificationsHandlers {
  constructor(private readonly verifications: VerificationsService) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.createVerification)
  create(@Payload(new EnvelopePipe(CreateVerificationRequest)) { ctx, payload }: MessageEnvelope<CreateVerificationRequest>): Promise<Verification> {
    return this.verifications.create(ctx, payload.customerId);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.getVerification)
  get(@Payload(new EnvelopePipe(GetVerificationRequest)) { ctx, payload }: MessageEnvelope<GetVerificationRequest>): Promise<Verification> {
    return this.verifications.get(ctx, payload.verificationId);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.listVerifications)
  list(@Payload(new EnvelopePipe(ListVerificationsRequest)) { ctx, payload }: MessageEnvelope<ListVerificationsRequest>): Promise<Page<Verification>> {
    return this.verifications.list(ctx, payload);
  }
}
