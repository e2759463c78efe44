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
import { StablecoinsService } from './stablecoins.service';

@Controller()
export class StablecoinsHandlers {
  constructor(private readonly stablecoins: StablecoinsService) {}

  @MessagePattern(STABLECOINS_SUBJECTS.linkProviderAccount)
  link(
    @Payload(new EnvelopePipe(LinkStablecoinProviderAccountMessage)) { ctx, payload }: MessageEnvelope<LinkStablecoinProviderAccountMessage>,
  ): Promise<StablecoinProviderAccount> {
    return this.stablecoins.link(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.listProviderAccounts)
  listProviderAccounts(
    @Payload(new EnvelopePipe(ListStablecoinProviderAccountsQuery)) { ctx, payload }: MessageEnvelope<ListStablecoinProviderAccountsQuery>,
  ): Promise<StablecoinPage<StablecoinProviderAccount>> {
    return this.stablecoins.listProviderAccounts(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.getProviderAccount)
  getProviderAccount(@Payload(new EnvelopePipe(StablecoinProviderAccountRef)) { ctx, payload }: MessageEnvelope<StablecoinProviderAccountRef>): Promise<StablecoinProviderAccount> {
    return this.stablecoins.getProviderAccount(ctx, payload.stablecoinProviderAccountId);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.register)
  register(@Payload(new EnvelopePipe(RegisterStablecoinMessage)) { ctx, payload }: MessageEnvelope<RegisterStablecoinMessage>): Promise<Stablecoin> {
    return this.stablecoins.register(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.list)
  list(@Payload(new EnvelopePipe(ListStablecoinsQuery)) { ctx, payload }: MessageEnvelope<ListStablecoinsQuery>): Promise<StablecoinPage<Stablecoin>> {
    return this.stablecoins.list(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.get)
  get(@Payload(new EnvelopePipe(StablecoinRef)) { ctx, payload }: MessageEnvelope<StablecoinRef>): Promise<Stablecoin> {
    return this.stablecoins.get(ctx, payload.stablecoinId);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.mint)
  mint(@Payload(new EnvelopePipe(CreateStablecoinMintMessage)) { ctx, payload }: MessageEnvelope<CreateStablecoinMintMessage>): Promise<StablecoinOperation> {
    return this.stablecoins.mint(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.burn)
  burn(@Payload(new EnvelopePipe(CreateStablecoinBurnMessage)) { ctx, payload }: MessageEnvelope<CreateStablecoinBurnMessage>): Promise<StablecoinOperation> {
    return this.stablecoins.burn(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.listOperations)
  listOperations(
    @Payload(new EnvelopePipe(ListStablecoinOperationsMessage)) { ctx, payload }: MessageEnvelope<ListStablecoinOperationsMessage>,
  ): Promise<StablecoinPage<StablecoinOperation>> {
    return this.stablecoins.listOperations(ctx, payload);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.getOperation)
  getOperation(@Payload(new EnvelopePipe(StablecoinOperationRef)) { ctx, payload }: MessageEnvelope<StablecoinOperationRef>): Promise<StablecoinOperation> {
    return this.stablecoins.getOperation(ctx, payload.stablecoinOperationId);
  }

  @MessagePattern(STABLECOINS_SUBJECTS.fundOperation)
  fund(@Payload(new EnvelopePipe(FundStablecoinOperationMessage)) { ctx, payload }: MessageEnvelope<FundStablecoinOperationMessage>): Promise<StablecoinOperation> {
    return this.stablecoins.fund(ctx, payload.stablecoinOperationId);
  }
}
