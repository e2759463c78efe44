import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AuthMethod,
  AuthSession,
  ChallengeCredentialRequest,
  CreateCredentialRequest,
  CredentialChallengeResponse,
  Empty,
  ListByAccountQuery,
  MessageEnvelope,
  RevokeCredentialRequest,
  SignedRetryOutcome,
  VerifyCredentialRequest,
  WALLET_AUTH_SUBJECTS,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { CredentialsService } from './credentials.service';

@Controller()
export class CredentialsHandlers {
  constructor(private readonly credentials: CredentialsService) {}

  @MessagePattern(WALLET_AUTH_SUBJECTS.createCredential)
  create(@Payload(new EnvelopePipe(CreateCredentialRequest)) { ctx, payload }: MessageEnvelope<CreateCredentialRequest>): Promise<SignedRetryOutcome<AuthMethod>> {
    return this.credentials.create(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.listCredentials)
  list(@Payload(new EnvelopePipe(ListByAccountQuery)) { ctx, payload }: MessageEnvelope<ListByAccountQuery>): Promise<{ data: AuthMethod[] }> {
    return this.credentials.list(ctx, payload.accountId);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.challengeCredential)
  challenge(@Payload(new EnvelopePipe(ChallengeCredentialRequest)) { ctx, payload }: MessageEnvelope<ChallengeCredentialRequest>): Promise<CredentialChallengeResponse> {
    return this.credentials.challenge(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.verifyCredential)
  verify(@Payload(new EnvelopePipe(VerifyCredentialRequest)) { ctx, payload }: MessageEnvelope<VerifyCredentialRequest>): Promise<SignedRetryOutcome<AuthSession>> {
    return this.credentials.verify(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.revokeCredential)
  revoke(@Payload(new EnvelopePipe(RevokeCredentialRequest)) { ctx, payload }: MessageEnvelope<RevokeCredentialRequest>): Promise<SignedRetryOutcome<Empty>> {
    return this.credentials.revoke(ctx, payload);
  }
}
