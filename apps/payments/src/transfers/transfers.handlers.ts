import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  GetTransactionRequest,
  ListTransactionsQuery,
  MessageEnvelope,
  Page,
  PAYMENTS_SUBJECTS,
  SetDailyVolumeLimitRequest,
  SetVelocityLimitRequest,
  DailyVolumeLimit,
  SignedRetryOutcome,
  Transaction,
  TransferInMessage,
  TransferOutMessage,
  VelocityLimit,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { TransfersService } from './transfers.service';

@Controller()
export class TransfersHandlers {
  constructor(private readonly transfers: TransfersService) {}

  @MessagePattern(PAYMENTS_SUBJECTS.transferOut)
  transferOut(@Payload(new EnvelopePipe(TransferOutMessage)) { ctx, payload }: MessageEnvelope<TransferOutMessage>): Promise<SignedRetryOutcome<Transaction>> {
    return this.transfers.transferOut(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.transferIn)
  transferIn(@Payload(new EnvelopePipe(TransferInMessage)) { ctx, payload }: MessageEnvelope<TransferInMessage>): Promise<Transaction> {
    return this.transfers.transferIn(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.getTransaction)
  get(@Payload(new EnvelopePipe(GetTransactionRequest)) { ctx, payload }: MessageEnvelope<GetTransactionRequest>): Promise<Transaction> {
    return this.transfers.get(ctx, payload.transactionId);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.listTransactions)
  list(@Payload(new EnvelopePipe(ListTransactionsQuery)) { ctx, payload }: MessageEnvelope<ListTransactionsQuery>): Promise<Page<Transaction>> {
    return this.transfers.list(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.setDailyVolumeLimit)
  setDailyVolumeLimit(@Payload(new EnvelopePipe(SetDailyVolumeLimitRequest)) { ctx, payload }: MessageEnvelope<SetDailyVolumeLimitRequest>): Promise<DailyVolumeLimit> {
    return this.transfers.setDailyVolumeLimit(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.setVelocityLimit)
  setVelocityLimit(@Payload(new EnvelopePipe(SetVelocityLimitRequest)) { ctx, payload }: MessageEnvelope<SetVelocityLimitRequest>): Promise<VelocityLimit> {
    return this.transfers.setVelocityLimit(ctx, payload);
  }
}
