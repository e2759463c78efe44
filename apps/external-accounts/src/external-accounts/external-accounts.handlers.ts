import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateExternalAccountMessage,
  EXTERNAL_ACCOUNTS_SUBJECTS,
  ExternalAccount,
  ExternalAccountPage,
  ExternalAccountWithRouting,
  GetExternalAccountRequest,
  ListExternalAccountsMessage,
  MessageEnvelope,
  OwnershipChallenge,
  OwnershipChallengeMessage,
  OwnershipVerifyMessage,
  RemoveExternalAccountRequest,
  UpdateExternalAccountMessage,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { ExternalAccountsService } from './external-accounts.service';

@Controller()
export class ExternalAccountsHandlers {
  constructor(private readonly accounts: ExternalAccountsService) {}

  @MessagePattern(EXTERNAL_ACCOUNTS_SUBJECTS.createAccount)
  create(@Payload(new EnvelopePipe(CreateExternalAccountMessage)) { ctx, payload }: MessageEnvelope<CreateExternalAccountMessage>): Promise<ExternalAccount> {
    return this.accounts.create(ctx, payload.ownerType, payload.body);
  }

  @MessagePattern(EXTERNAL_ACCOUNTS_SUBJECTS.getAccount)
  get(@Payload(new EnvelopePipe(GetExternalAccountRequest)) { ctx, payload }: MessageEnvelope<GetExternalAccountRequest>): Promise<ExternalAccountWithRouting> {
    return this.accounts.get(ctx, payload);
  }

  @MessagePattern(EXTERNAL_ACCOUNTS_SUBJECTS.listAccounts)
  list(@Payload(new EnvelopePipe(ListExternalAccountsMessage)) { ctx, payload }: MessageEnvelope<ListExternalAccountsMessage>): Promise<ExternalAccountPage> {
    return this.accounts.list(ctx, payload);
  }

  @MessagePattern(EXTERNAL_ACCOUNTS_SUBJECTS.updateAccount)
  update(@Payload(new EnvelopePipe(UpdateExternalAccountMessage)) { ctx, payload }: MessageEnvelope<UpdateExternalAccountMessage>): Promise<ExternalAccount> {
    return this.accounts.update(ctx, payload, payload.body);
  }

  @MessagePattern(EXTERNAL_ACCOUNTS_SUBJECTS.removeAccount)
  remove(@Payload(new EnvelopePipe(RemoveExternalAccountRequest)) { ctx, payload }: MessageEnvelope<RemoveExternalAccountRequest>): Promise<ExternalAccount> {
    return this.accounts.remove(ctx, payload);
  }

  @MessagePattern(EXTERNAL_ACCOUNTS_SUBJECTS.startOwnershipChallenge)
  startOwnershipChallenge(@Payload(new EnvelopePipe(OwnershipChallengeMessage)) { ctx, payload }: MessageEnvelope<OwnershipChallengeMessage>): Promise<OwnershipChallenge> {
    return this.accounts.startOwnershipChallenge(ctx, payload);
  }

  @MessagePattern(EXTERNAL_ACCOUNTS_SUBJECTS.verifyOwnership)
  verifyOwnership(@Payload(new EnvelopePipe(OwnershipVerifyMessage)) { ctx, payload }: MessageEnvelope<OwnershipVerifyMessage>): Promise<ExternalAccount> {
    return this.accounts.verifyOwnership(ctx, payload);
  }
}
