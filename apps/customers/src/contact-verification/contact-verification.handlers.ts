import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ConfirmContactCodeRequest, ContactCodeRequest, ContactCodeSent, Customer, CUSTOMERS_SUBJECTS, MessageEnvelope } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { ContactVerificationService } from './contact-verification.service';

@Controller()
export class ContactVerificationHandlers {
  constructor(private readonly contacts: ContactVerificationService) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.sendContactCode)
  send(@Payload(new EnvelopePipe(ContactCodeRequest)) { ctx, payload }: MessageEnvelope<ContactCodeRequest>): Promise<ContactCodeSent> {
    return this.contacts.send(ctx, payload.customerId, payload.channel);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.confirmContactCode)
  confirm(@Payload(new EnvelopePipe(ConfirmContactCodeRequest)) { ctx, payload }: MessageEnvelope<ConfirmContactCodeRequest>): Promise<Customer> {
    return this.contacts.confirm(ctx, payload.customerId, payload.channel, payload.code);
  }
}
