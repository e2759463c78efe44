import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateStablecoinBurnMessage,
  CreateStablecoinMintMessage,
  FundStablecoinOperationMessage,
  LinkStablecoinProviderAccountMessage,
  ListStablecoinOperationsMessage,
  ListStablecoinProviderAccountsQuery,
  ListStablecoinsQuery,
  MessageEnvelope,
  RegisterStablecoinMessage,
  Stablecoin,
  StablecoinOperation,
  StablecoinOperationRef,
  StablecoinPage,
  StablecoinProviderAccount,
  StablecoinProviderAccountRef,
  StablecoinRef,
  STABLECOINS_SUBJECTS,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { BurnStablecoin } from './use-cases/burn-stablecoin';
import { FundOperation } from './use-cases/fund-operation';
import { LinkProviderAccount } from './use-cases/link-provider-account';
import { MintStablecoin } from './use-cases/mint-stablecoin';
import { RegisterStablecoin } from './use-cases/register-stablecoin';
import { StablecoinReader } from './use-cases/stablecoin-reader';

/** The stablecoins subjects, each answered by its use case (the reads by StablecoinReader). */
@Controller()
export class StablecoinsHandlers {
  constructor(
    private readonly linkProviderAccount: LinkProviderAccount,
    private readonly registerStablecoin: RegisterStablecoin,
    private readonly mintStablecoin: MintStablecoin,
    private readonly burnStablecoin: BurnStablecoin,
    private readonly fundOperation: FundOperation,
    private readonly reader: StablecoinReader,
  ) {}

  @MessagePattern(STABLECOINS_SUBJECTS.linkProviderAccount)
  link(
    @Payload(new EnvelopePipe(LinkStablecoinProviderAccountMessage)) { ctx, payload }: MessageEnvelope<LinkStablecoinProviderAccountMessage>,
  ): Promise<StablecoinProviderAccount> {
    return this.linkProviderAccount.run(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.listProviderAccounts)
  listProviderAccounts(
    @Payload(new EnvelopePipe(ListStablecoinProviderAccountsQuery)) { ctx, payload }: MessageEnvelope<ListStablecoinProviderAccountsQuery>,
  ): Promise<StablecoinPage<StablecoinProviderAccount>> {
    return this.reader.listProviderAccounts(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.getProviderAccount)
  getProviderAccount(@Payload(new EnvelopePipe(StablecoinProviderAccountRef)) { ctx, payload }: MessageEnvelope<StablecoinProviderAccountRef>): Promise<StablecoinProviderAccount> {
    return this.reader.getProviderAccount(ctx, payload.stablecoinProviderAccountId);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.register)
  register(@Payload(new EnvelopePipe(RegisterStablecoinMessage)) { ctx, payload }: MessageEnvelope<RegisterStablecoinMessage>): Promise<Stablecoin> {
    return this.registerStablecoin.run(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.list)
  list(@Payload(new EnvelopePipe(ListStablecoinsQuery)) { ctx, payload }: MessageEnvelope<ListStablecoinsQuery>): Promise<StablecoinPage<Stablecoin>> {
    return this.reader.list(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.get)
  get(@Payload(new EnvelopePipe(StablecoinRef)) { ctx, payload }: MessageEnvelope<StablecoinRef>): Promise<Stablecoin> {
    return this.reader.get(ctx, payload.stablecoinId);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.mint)
  mint(@Payload(new EnvelopePipe(CreateStablecoinMintMessage)) { ctx, payload }: MessageEnvelope<CreateStablecoinMintMessage>): Promise<StablecoinOperation> {
    return this.mintStablecoin.run(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.burn)
  burn(@Payload(new EnvelopePipe(CreateStablecoinBurnMessage)) { ctx, payload }: MessageEnvelope<CreateStablecoinBurnMessage>): Promise<StablecoinOperation> {
    return this.burnStablecoin.run(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.listOperations)
  listOperations(
    @Payload(new EnvelopePipe(ListStablecoinOperationsMessage)) { ctx, payload }: MessageEnvelope<ListStablecoinOperationsMessage>,
  ): Promise<StablecoinPage<StablecoinOperation>> {
    return this.reader.listOperations(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.getOperation)
  getOperation(@Payload(new EnvelopePipe(StablecoinOperationRef)) { ctx, payload }: MessageEnvelope<StablecoinOperationRef>): Promise<StablecoinOperation> {
    return this.reader.getOperation(ctx, payload.stablecoinOperationId);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.fundOperation)
  fund(@Payload(new EnvelopePipe(FundStablecoinOperationMessage)) { ctx, payload }: MessageEnvelope<FundStablecoinOperationMessage>): Promise<StablecoinOperation> {
    return this.fundOperation.run(ctx, payload.stablecoinOperationId);
  }
}
