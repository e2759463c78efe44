import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateDelegatedKeyRequest,
  DelegatedKey,
  DelegatedKeyIdRequest,
  Empty,
  ListDelegatedKeysQuery,
  MessageEnvelope,
  SignedRetryOutcome,
  WALLET_AUTH_SUBJECTS,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { DelegatedKeysService } from './delegated-keys.service';

@Controller()
export class DelegatedKeysHandlers {
  constructor(private readonly delegatedKeys: DelegatedKeysService) {}

  @MessagePattern(WALLET_AUTH_SUBJECTS.createDelegatedKey)
  create(@Payload(new EnvelopePipe(CreateDelegatedKeyRequest)) { ctx, payload }: MessageEnvelope<CreateDelegatedKeyRequest>): Promise<SignedRetryOutcome<DelegatedKey>> {
    return this.delegatedKeys.create(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.listDelegatedKeys)
  list(@Payload(new EnvelopePipe(ListDelegatedKeysQuery)) { ctx, payload }: MessageEnvelope<ListDelegatedKeysQuery>): Promise<{ data: DelegatedKey[] }> {
    return this.delegatedKeys.list(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.getDelegatedKey)
  get(@Payload(new EnvelopePipe(DelegatedKeyIdRequest)) { ctx, payload }: MessageEnvelope<DelegatedKeyIdRequest>): Promise<DelegatedKey> {
    return this.delegatedKeys.get(ctx, payload.delegatedKeyId);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.revokeDelegatedKey)
  revoke(@Payload(new EnvelopePipe(DelegatedKeyIdRequest)) { ctx, payload }: MessageEnvelope<DelegatedKeyIdRequest>): Promise<Empty> {
    return this.delegatedKeys.revoke(ctx, payload.delegatedKeyId);
  }
}
