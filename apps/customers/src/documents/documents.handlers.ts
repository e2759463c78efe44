import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AppendDocumentChunkRequest,
  CompleteDocumentUploadRequest,
  CustomerDocument,
  CUSTOMERS_SUBJECTS,
  DocumentUploadStarted,
  GetDocumentRequest,
  ListDocumentsRequest,
  MessageEnvelope,
  Page,
  StartDocumentUploadRequest,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { DocumentsService } from './documents.service';

@Controller()
export class DocumentsHandlers {
  constructor(private readonly documents: DocumentsService) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.startDocumentUpload)
  start(@Payload(new EnvelopePipe(StartDocumentUploadRequest)) { ctx, payload }: MessageEnvelope<StartDocumentUploadRequest>): Promise<DocumentUploadStarted> {
    return this.documents.start(ctx, payload);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.appendDocumentChunk)
  append(@Payload(new EnvelopePipe(AppendDocumentChunkRequest)) { ctx, payload }: MessageEnvelope<AppendDocumentChunkRequest>): Promise<{ received: number }> {
    return this.documents.appendChunk(ctx, payload);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.completeDocumentUpload)
  complete(@Payload(new EnvelopePipe(CompleteDocumentUploadRequest)) { ctx, payload }: MessageEnvelope<CompleteDocumentUploadRequest>): Promise<CustomerDocument> {
    return this.documents.complete(ctx, payload);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.getDocument)
  get(@Payload(new EnvelopePipe(GetDocumentRequest)) { ctx, payload }: MessageEnvelope<GetDocumentRequest>): Promise<CustomerDocument> {
    return this.documents.get(ctx, payload.documentId);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.deleteDocument)
  async delete(@Payload(new EnvelopePipe(GetDocumentRequest)) { ctx, payload }: MessageEnvelope<GetDocumentRequest>): Promise<{ deleted: true }> {
    await this.documents.delete(ctx, payload.documentId);
    return { deleted: true };
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.listDocuments)
  list(@Payload(new EnvelopePipe(ListDocumentsRequest)) { ctx, payload }: MessageEnvelope<ListDocumentsRequest>): Promise<Page<CustomerDocument>> {
    return this.documents.list(ctx, payload);
  }
}
