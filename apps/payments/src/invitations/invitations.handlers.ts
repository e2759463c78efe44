import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ClaimInvitationMessage, CreateInvitationRequest, DIRECTORY_SUBJECTS, Invitation, InvitationRef, MessageEnvelope } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { InvitationsService } from './invitations.service';

@Controller()
export class InvitationsHandlers {
  constructor(private readonly invitations: InvitationsService) {}

  @MessagePattern(DIRECTORY_SUBJECTS.createInvitation)
  create(@Payload(new EnvelopePipe(CreateInvitationRequest)) { ctx, payload }: MessageEnvelope<CreateInvitationRequest>): Promise<Invitation> {
    return this.invitations.create(ctx, payload);
  }

  @MessagePattern(DIRECTORY_SUBJECTS.getInvitation)
  get(@Payload(new EnvelopePipe(InvitationRef)) { ctx, payload }: MessageEnvelope<InvitationRef>): Promise<Invitation> {
    return this.invitations.get(ctx, payload.code);
  }

  @MessagePattern(DIRECTORY_SUBJECTS.claimInvitation)
  claim(@Payload(new EnvelopePipe(ClaimInvitationMessage)) { ctx, payload }: MessageEnvelope<ClaimInvitationMessage>): Promise<Invitation> {
    return this.invitations.claim(ctx, payload);
  }

  @MessagePattern(DIRECTORY_SUBJECTS.cancelInvitation)
  cancel(@Payload(new EnvelopePipe(InvitationRef)) { ctx, payload }: MessageEnvelope<InvitationRef>): Promise<Invitation> {
    return this.invitations.cancel(ctx, payload.code);
  }
}
