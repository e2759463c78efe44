import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ConsumeSignedRetryRequest, IssueSignedRetryRequest, MessageEnvelope, SignedRetryChallenge, SignedRetryProof, WALLET_AUTH_SUBJECTS } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { SignedRetryService } from './signed-retry.service';

/** The signed-retry mechanism as other services call it. */
@Controller()
export class SignedRetryHandlers {
  constructor(private readonly signedRetry: SignedRetryService) {}

  @MessagePattern(WALLET_AUTH_SUBJECTS.issueSignedRetry)
  issue(@Payload(new EnvelopePipe(IssueSignedRetryRequest)) { ctx, payload }: MessageEnvelope<IssueSignedRetryRequest>): Promise<SignedRetryChallenge> {
    return this.signedRetry.issue(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.consumeSignedRetry)
  async consume(@Payload(new EnvelopePipe(ConsumeSignedRetryRequest)) { ctx, payload }: MessageEnvelope<ConsumeSignedRetryRequest>): Promise<SignedRetryProof> {
    const { requestId, accountId, operation, sessionId, authMethodId, legacy } = await this.signedRetry.consume(ctx, payload);
    return { requestId, accountId, operation, legacy, ...(sessionId ? { sessionId } : {}), ...(authMethodId ? { authMethodId } : {}) };
  }
}
