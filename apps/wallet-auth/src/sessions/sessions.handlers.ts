import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AuthSession, Empty, ListByAccountQuery, MessageEnvelope, RefreshSessionRequest, SessionIdRequest, SignedRetryOutcome, WALLET_AUTH_SUBJECTS } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { SessionsService } from './sessions.service';

@Controller()
export class SessionsHandlers {
  constructor(private readonly sessions: SessionsService) {}

  @MessagePattern(WALLET_AUTH_SUBJECTS.listSessions)
  list(@Payload(new EnvelopePipe(ListByAccountQuery)) { ctx, payload }: MessageEnvelope<ListByAccountQuery>): Promise<{ data: AuthSession[] }> {
    return this.sessions.list(ctx, payload.accountId);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.revokeSession)
  revoke(@Payload(new EnvelopePipe(SessionIdRequest)) { ctx, payload }: MessageEnvelope<SessionIdRequest>): Promise<SignedRetryOutcome<Empty>> {
    return this.sessions.revoke(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.refreshSession)
  refresh(@Payload(new EnvelopePipe(RefreshSessionRequest)) { ctx, payload }: MessageEnvelope<RefreshSessionRequest>): Promise<SignedRetryOutcome<AuthSession>> {
    return this.sessions.refresh(ctx, payload);
  }
}
