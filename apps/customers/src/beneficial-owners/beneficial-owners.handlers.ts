import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  BeneficialOwner,
  CreateBeneficialOwnerRequest,
  CUSTOMERS_SUBJECTS,
  GetBeneficialOwnerRequest,
  ListBeneficialOwnersRequest,
  MessageEnvelope,
  Page,
  UpdateBeneficialOwnerRequest,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { BeneficialOwnersService } from './beneficial-owners.service';

@Controller()
export class BeneficialOwnersHandlers {
  constructor(private readonly owners: BeneficialOwnersService) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.createBeneficialOwner)
  create(@Payload(new EnvelopePipe(CreateBeneficialOwnerRequest)) { ctx, payload }: MessageEnvelope<CreateBeneficialOwnerRequest>): Promise<BeneficialOwner> {
    return this.owners.create(ctx, payload);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.getBeneficialOwner)
  get(@Payload(new EnvelopePipe(GetBeneficialOwnerRequest)) { ctx, payload }: MessageEnvelope<GetBeneficialOwnerRequest>): Promise<BeneficialOwner> {
    return this.owners.get(ctx, payload.beneficialOwnerId);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.listBeneficialOwners)
  list(@Payload(new EnvelopePipe(ListBeneficialOwnersRequest)) { ctx, payload }: MessageEnvelope<ListBeneficialOwnersRequest>): Promise<Page<BeneficialOwner>> {
    return this.owners.list(ctx, payload);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.updateBeneficialOwner)
  update(@Payload(new EnvelopePipe(UpdateBeneficialOwnerRequest)) { ctx, payload }: MessageEnvelope<UpdateBeneficialOwnerRequest>): Promise<BeneficialOwner> {
    return this.owners.update(ctx, payload.beneficialOwnerId, payload.changes);
  }
}
