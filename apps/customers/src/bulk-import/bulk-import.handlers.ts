import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AppendBulkImportRowsRequest,
  BulkImportJob,
  BulkRowsProcessed,
  CUSTOMERS_SUBJECTS,
  FinishBulkImportRequest,
  GetBulkImportRequest,
  MessageEnvelope,
  StartBulkImportRequest,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { BulkImportService } from './bulk-import.service';

@Controller()
export class BulkImportHandlers {
  constructor(private readonly imports: BulkImportService) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.startBulkImport)
  start(@Payload(new EnvelopePipe(StartBulkImportRequest)) { ctx, payload }: MessageEnvelope<StartBulkImportRequest>): Promise<BulkImportJob> {
    return this.imports.start(ctx, payload.fileName);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.appendBulkImportRows)
  append(@Payload(new EnvelopePipe(AppendBulkImportRowsRequest)) { ctx, payload }: MessageEnvelope<AppendBulkImportRowsRequest>): Promise<BulkRowsProcessed> {
    return this.imports.appendRows(ctx, payload);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.finishBulkImport)
  finish(@Payload(new EnvelopePipe(FinishBulkImportRequest)) { ctx, payload }: MessageEnvelope<FinishBulkImportRequest>): Promise<BulkImportJob> {
    return this.imports.finish(ctx, payload);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.getBulkImport)
  get(@Payload(new EnvelopePipe(GetBulkImportRequest)) { ctx, payload }: MessageEnvelope<GetBulkImportRequest>): Promise<BulkImportJob> {
    return this.imports.get(ctx, payload.jobId);
  }
}
