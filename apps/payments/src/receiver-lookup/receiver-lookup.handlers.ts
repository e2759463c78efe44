import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { LookupExternalAccountReceiverRequest, LookupUmaReceiverRequest, MessageEnvelope, QUOTES_SUBJECTS, ReceiverLookup } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { ReceiverLookupService } from './receiver-lookup.service';

@Controller()
export class ReceiverLookupHandlers {
  constructor(private readonly receivers: ReceiverLookupService) {}

  @MessagePattern(QUOTES_SUBJECTS.lookupUmaReceiver)
  lookupUma(@Payload(new EnvelopePipe(LookupUmaReceiverRequest)) { ctx, payload }: MessageEnvelope<LookupUmaReceiverRequest>): Promise<ReceiverLookup> {
    return this.receivers.lookupUma(ctx, payload);
  }

  @MessagePattern(QUOTES_SUBJECTS.lookupExternalAccountReceiver)
  lookupExternalAccount(
    @Payload(new EnvelopePipe(LookupExternalAccountReceiverRequest)) { ctx, payload }: MessageEnvelope<LookupExternalAccountReceiverRequest>,
  ): Promise<ReceiverLookup> {
    return this.receivers.lookupExternalAccount(ctx, payload);
  }
}
