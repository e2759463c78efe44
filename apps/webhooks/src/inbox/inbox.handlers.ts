import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ListReceivedEventsRequest, MessageEnvelope, ReceivedEvent, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { InboxService } from './inbox.service';

@Controller()
export class InboxHandlers {
  constructor(private readonly inbox: InboxService) {}

  @MessagePattern(WEBHOOKS_SUBJECTS.listReceivedEvents)
  list(@Payload(new EnvelopePipe(ListReceivedEventsRequest)) { ctx, payload }: MessageEnvelope<ListReceivedEventsRequest>): Promise<ReceivedEvent[]> {
    return this.inbox.list(ctx, payload.resourceId);
  }
}
