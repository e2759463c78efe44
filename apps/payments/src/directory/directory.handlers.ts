import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  DIRECTORY_SUBJECTS,
  EstimateWithdrawalFeeRequest,
  ListUmaProvidersQuery,
  ListVaspsQuery,
  MessageEnvelope,
  UmaProviderPage,
  VaspPage,
  WithdrawalFeeEstimate,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { DirectoryService } from './directory.service';

@Controller()
export class DirectoryHandlers {
  constructor(private readonly directory: DirectoryService) {}

  @MessagePattern(DIRECTORY_SUBJECTS.listUmaProviders)
  umaProviders(@Payload(new EnvelopePipe(ListUmaProvidersQuery)) { payload }: MessageEnvelope<ListUmaProvidersQuery>): Promise<UmaProviderPage> {
    return this.directory.umaProviders(payload);
  }

  @MessagePattern(DIRECTORY_SUBJECTS.listVasps)
  vasps(@Payload(new EnvelopePipe(ListVaspsQuery)) { payload }: MessageEnvelope<ListVaspsQuery>): VaspPage {
    return this.directory.vasps(payload);
  }

  @MessagePattern(DIRECTORY_SUBJECTS.estimateWithdrawalFee)
  estimate(@Payload(new EnvelopePipe(EstimateWithdrawalFeeRequest)) { ctx, payload }: MessageEnvelope<EstimateWithdrawalFeeRequest>): Promise<WithdrawalFeeEstimate> {
    return this.directory.estimateWithdrawalFee(ctx, payload);
  }
}
