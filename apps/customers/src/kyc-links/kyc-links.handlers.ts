import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CompleteKycLinkRequest,
  CreateKycLinkRequest,
  CUSTOMERS_SUBJECTS,
  KycLinkCompletion,
  KycLinkIssued,
  KycLinkTokenRequest,
  KycLinkView,
  MessageEnvelope,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { KycLinksService } from './kyc-links.service';

@Controller()
export class KycLinksHandlers {
  constructor(private readonly links: KycLinksService) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.createKycLink)
  create(@Payload(new EnvelopePipe(CreateKycLinkRequest)) { ctx, payload }: MessageEnvelope<CreateKycLinkRequest>): Promise<KycLinkIssued> {
    return this.links.create(ctx, payload.customerId, payload.redirectUri);
  }

  /** Hosted page: the link's token identifies the platform; the caller context carries none. */
  @MessagePattern(CUSTOMERS_SUBJECTS.openKycLink)
  open(@Payload(new EnvelopePipe(KycLinkTokenRequest)) { payload }: MessageEnvelope<KycLinkTokenRequest>): Promise<KycLinkView> {
    return this.links.open(payload.token);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.completeKycLink)
  complete(@Payload(new EnvelopePipe(CompleteKycLinkRequest)) { ctx, payload }: MessageEnvelope<CompleteKycLinkRequest>): Promise<KycLinkCompletion> {
    return this.links.complete(payload, ctx.requestId);
  }
}
