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
  SetInternalAccountStatusRequest,
  SignedRetryOutcome,
  UpdateInternalAccountPrivacyRequest,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { EnvelopePipe } from '@paykit/transport';
import { SandboxRules } from '@paykit/runtime';
import { InternalAccountsService } from './internal-accounts.service';

@Controller()
export class InternalAccountsHandlers {
  constructor(
    private readonly accounts: InternalAccountsService,
    private readonly sandbox: SandboxRules,
  ) {}

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
  ): Promise<SignedRetryOutcome<InternalAccount>> {
    return this.accounts.updatePrivacy(ctx, payload);
  }

  @MessagePattern(PAYMENTS_SUBJECTS.setInternalAccountStatus)
  setStatus(@Payload(new EnvelopePipe(SetInternalAccountStatusRequest)) { ctx, payload }: MessageEnvelope<SetInternalAccountStatusRequest>): Promise<InternalAccount> {
    // A sandbox simulator: a production token never drives it, whatever path it takes.
    if (!this.sandbox.applyTo(ctx)) throw new ServiceError('FORBIDDEN', 'Changing an account status needs a sandbox token');
    return this.accounts.setStatus(ctx, payload.accountId, payload.status);
  }
}
