import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CaptureHoldRequest,
  CreateCreditRequest,
  CreateHoldRequest,
  Credit,
  CreateRefundRequest,
  FundInternalAccountRequest,
  Hold,
  InternalAccount,
  MessageEnvelope,
  PAYMENTS_SUBJECTS,
  ReleaseHoldRequest,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { EnvelopePipe } from '@paykit/transport';
import { SandboxRules } from '@paykit/runtime';
import { LedgerService } from './ledger.service';

@Controller()
export class LedgerHandlers {
  constructor(
    private readonly ledger: LedgerService,
    private readonly sandbox: SandboxRules,
  ) {}

  @MessagePattern(PAYMENTS_SUBJECTS.fundInternalAccount)
  fund(@Payload(new EnvelopePipe(FundInternalAccountRequest)) { ctx, payload }: MessageEnvelope<FundInternalAccountRequest>): Promise<InternalAccount> {
    // Sandbox money: a production token never mints it, whatever path it takes.
    if (!this.sandbox.applyTo(ctx)) throw new ServiceError('FORBIDDEN', 'Sandbox funding needs a sandbox token');
    return this.ledger.fund(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.createHold)
  hold(@Payload(new EnvelopePipe(CreateHoldRequest)) { ctx, payload }: MessageEnvelope<CreateHoldRequest>): Promise<Hold> {
    return this.ledger.createHold(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.captureHold)
  capture(@Payload(new EnvelopePipe(CaptureHoldRequest)) { ctx, payload }: MessageEnvelope<CaptureHoldRequest>): Promise<Hold> {
    return this.ledger.captureHold(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.releaseHold)
  release(@Payload(new EnvelopePipe(ReleaseHoldRequest)) { ctx, payload }: MessageEnvelope<ReleaseHoldRequest>): Promise<Hold> {
    return this.ledger.releaseHold(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.createRefund)
  refund(@Payload(new EnvelopePipe(CreateRefundRequest)) { ctx, payload }: MessageEnvelope<CreateRefundRequest>): Promise<Hold> {
    return this.ledger.refund(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.createCredit)
  credit(@Payload(new EnvelopePipe(CreateCreditRequest)) { ctx, payload }: MessageEnvelope<CreateCreditRequest>): Promise<Credit> {
    return this.ledger.credit(ctx, payload);
  }
}
