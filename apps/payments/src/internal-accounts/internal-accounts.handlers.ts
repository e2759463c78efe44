import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  GetInternalAccountRequest,
  InternalAccount,
  InternalAccountRecord,
  ListInternalAccountsRequest,
  MessageEnvelope,
  Page,
  PAYMENTS_SUBJECTS,
  UpdateInternalAccountPrivacyRequest,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { InternalAccountsService } from './internal-accounts.service';

@Controller()
export class InternalAccountsHandlers {
  constructor(private readonly accounts: InternalAccountsService) {}

  @MessagePattern(PAYMENTS_SUBJECTS.getInternalAccount)
  get(@Payload(new EnvelopePipe(GetInternalAccountRequest)) { ctx, payload }: MessageEnvelope<GetInternalAccountRequest>): Promise<InternalAccountRecord> {
    return this.accounts.get(ctx, payload.accountId);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.listInternalAccounts)
  list(@Payload(new EnvelopePipe(ListInternalAccountsRequest)) { ctx, payload }: MessageEnvelope<ListInternalAccountsRequest>): Promise<Page<InternalAccount>> {
    return this.accounts.list(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.updateInternalAccountPrivacy)
  updatePrivacy(
    @Payload(new EnvelopePipe(UpdateInternalAccountPrivacyRequest)) { ctx, payload }: MessageEnvelope<UpdateInternalAccountPrivacyRequest>,
  ): Promise<InternalAccount> {
    return this.accounts.updatePrivacy(ctx, payload.accountId, payload.privateEnabled);
  }
}
