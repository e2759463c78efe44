import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AuthorizeQuoteMessage,
  CreateQuoteMessage,
  ExecuteQuoteMessage,
  GetQuoteRequest,
  MessageEnvelope,
  Quote,
  QUOTES_SUBJECTS,
  SandboxSendRequest,
  SignedRetryOutcome,
  Transaction,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { QuoteAuthorization } from './quote-authorization';
import { CreateQuote } from './use-cases/create-quote';
import { ExecuteQuote } from './use-cases/execute-quote';
import { QuoteReader } from './use-cases/quote-reader';
import { SandboxSend } from './use-cases/sandbox-send';

/** The quotes subjects, each answered by its use case. */
@Controller()
export class QuotesHandlers {
  constructor(
    private readonly createQuote: CreateQuote,
    private readonly reader: QuoteReader,
    private readonly executeQuote: ExecuteQuote,
    private readonly sandboxSendQuote: SandboxSend,
    private readonly authorization: QuoteAuthorization,
  ) {}

  @MessagePattern(QUOTES_SUBJECTS.createQuote)
  create(@Payload(new EnvelopePipe(CreateQuoteMessage)) { ctx, payload }: MessageEnvelope<CreateQuoteMessage>): Promise<Quote> {
    return this.createQuote.run(ctx, payload);
  }

  @MessagePattern(QUOTES_SUBJECTS.getQuote)
  get(@Payload(new EnvelopePipe(GetQuoteRequest)) { ctx, payload }: MessageEnvelope<GetQuoteRequest>): Promise<Quote> {
    return this.reader.get(ctx, payload.quoteId);
  }

  @MessagePattern(QUOTES_SUBJECTS.executeQuote)
  execute(@Payload(new EnvelopePipe(ExecuteQuoteMessage)) { ctx, payload }: MessageEnvelope<ExecuteQuoteMessage>): Promise<SignedRetryOutcome<Quote>> {
    return this.executeQuote.run(ctx, payload);
  }

  @MessagePattern(QUOTES_SUBJECTS.sandboxSend)
  sandboxSend(@Payload(new EnvelopePipe(SandboxSendRequest)) { ctx, payload }: MessageEnvelope<SandboxSendRequest>): Promise<Transaction> {
    return this.sandboxSendQuote.run(ctx, payload);
  }

  @MessagePattern(QUOTES_SUBJECTS.authorizeQuote)
  authorize(@Payload(new EnvelopePipe(AuthorizeQuoteMessage)) { ctx, payload }: MessageEnvelope<AuthorizeQuoteMessage>): Promise<Quote> {
    return this.authorization.authorize(ctx, payload);
  }

  @MessagePattern(QUOTES_SUBJECTS.resendQuoteAuthorization)
  resend(@Payload(new EnvelopePipe(GetQuoteRequest)) { ctx, payload }: MessageEnvelope<GetQuoteRequest>): Promise<{ ok: true }> {
    return this.authorization.resend(ctx, payload.quoteId);
  }
}
