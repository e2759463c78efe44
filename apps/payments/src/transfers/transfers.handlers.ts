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
import { DailyVolume } from './use-cases/daily-volume';
import { TransactionReader } from './use-cases/transaction-reader';
import { TransferIn } from './use-cases/transfer-in';
import { TransferOut } from './use-cases/transfer-out';
import { VelocityLimits } from './use-cases/velocity-limits';

/** The transfers and transactions subjects, each answered by its use case. */
@Controller()
export class TransfersHandlers {
  constructor(
    private readonly transferOutUseCase: TransferOut,
    private readonly transferInUseCase: TransferIn,
    private readonly reader: TransactionReader,
    private readonly dailyVolume: DailyVolume,
    private readonly velocity: VelocityLimits,
  ) {}

  @MessagePattern(PAYMENTS_SUBJECTS.transferOut)
  transferOut(@Payload(new EnvelopePipe(TransferOutMessage)) { ctx, payload }: MessageEnvelope<TransferOutMessage>): Promise<SignedRetryOutcome<Transaction>> {
    return this.transferOutUseCase.run(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.transferIn)
  transferIn(@Payload(new EnvelopePipe(TransferInMessage)) { ctx, payload }: MessageEnvelope<TransferInMessage>): Promise<Transaction> {
    return this.transferInUseCase.run(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.getTransaction)
  get(@Payload(new EnvelopePipe(GetTransactionRequest)) { ctx, payload }: MessageEnvelope<GetTransactionRequest>): Promise<Transaction> {
    return this.reader.get(ctx, payload.transactionId);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.listTransactions)
  list(@Payload(new EnvelopePipe(ListTransactionsQuery)) { ctx, payload }: MessageEnvelope<ListTransactionsQuery>): Promise<Page<Transaction>> {
    return this.reader.list(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.setDailyVolumeLimit)
  setDailyVolumeLimit(@Payload(new EnvelopePipe(SetDailyVolumeLimitRequest)) { ctx, payload }: MessageEnvelope<SetDailyVolumeLimitRequest>): Promise<DailyVolumeLimit> {
    return this.dailyVolume.setLimit(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.setVelocityLimit)
  setVelocityLimit(@Payload(new EnvelopePipe(SetVelocityLimitRequest)) { ctx, payload }: MessageEnvelope<SetVelocityLimitRequest>): Promise<VelocityLimit> {
    return this.velocity.set(ctx, payload);
  }
}
