import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AppendDocumentChunkRequest,
  CallerContext,
  CompleteDocumentUploadRequest,
  CustomerDocument,
  CUSTOMERS_EVENTS,
  DOCUMENT_CHUNK_BYTES,
  DOCUMENT_CONTENT_TYPES,
  DOCUMENT_MAX_BYTES,
  DocumentContentType,
  DocumentUploadStarted,
  ListDocumentsRequest,
  newId,
  Page,
  StartDocumentUploadRequest,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { decodeCursor, idCursor, Outbox, pageLimit, toPage, TransactionRunner } from '@paykit/persistence';
import { BeneficialOwnersRepository } from '../beneficial-owners/beneficial-owners.repository';
import { CustomersService } from '../customers/customers.service';
import { DocumentsRepository } from './documents.repository';
import { documentReview, DocumentReview } from './documents.sandbox';
import { DocumentEntity } from './entities/document.entity';

const DOCUMENT_CURSOR = idCursor('Document');

/** The first bytes each accepted content type starts with: the declared type must match the bytes. */
const SIGNATURES: Record<DocumentContentType, number[]> = {
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

export function toDocument(entity: DocumentEntity): CustomerDocument {
  return {
    id: entity.id,
    customerId: entity.customerId,
    ...(entity.beneficialOwnerId ? { beneficialOwnerId: entity.beneficialOwnerId } : {}),
    documentType: entity.documentType,
    fileName: entity.fileName,
    contentType: entity.contentType,
    sizeBytes: Number(entity.sizeBytes),
    sha256: entity.sha256 ?? '',
    status: entity.status === 'UPLOADING' ? 'PENDING' : entity.status,
    ...(entity.rejectionReason ? { rejectionReason: entity.rejectionReason } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

/**
 * Documents arrive in chunks (the gateway streams the multipart file; transport messages stay
 * small) and are stored in this service's database, then reviewed.
 */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly documents: DocumentsRepository,
    private readonly owners: BeneficialOwnersRepository,
    private readonly customers: CustomersService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
  ) {}

  async start(ctx: CallerContext, request: StartDocumentUploadRequest): Promise<DocumentUploadStarted> {
    const customer = await this.customers.require(ctx, request.customerId);
    if (request.beneficialOwnerId) {
      const owner = await this.owners.findById(ctx.platformId, request.beneficialOwnerId, customer.id);
      if (!owner) throw new ServiceError('BENEFICIAL_OWNER_NOT_FOUND', `Beneficial owner ${request.beneficialOwnerId} not found for this customer`);
    }
    const now = new Date();
    const entity: DocumentEntity = {
      id: newId('Document'),
      platformId: ctx.platformId,
      customerId: customer.id,
      beneficialOwnerId: request.beneficialOwnerId ?? null,
      documentType: request.documentType,
      fileName: request.fileName,
      contentType: request.contentType,
      sizeBytes: '0',
      sha256: null,
      status: 'UPLOADING',
      rejectionReason: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.documents.insert(entity);
    return { documentId: entity.id, maxBytes: DOCUMENT_MAX_BYTES, chunkBytes: DOCUMENT_CHUNK_BYTES };
  }

  async appendChunk(ctx: CallerContext, request: AppendDocumentChunkRequest): Promise<{ received: number }> {
    const data = Buffer.from(request.data, 'base64');
    if (data.length === 0 || data.length > DOCUMENT_CHUNK_BYTES) throw ServiceError.invalidField('data', `a chunk holds 1 to ${DOCUMENT_CHUNK_BYTES} bytes`);
    return this.transactions.run(async (manager) => {
      const document = await this.documents.findForUpdate(manager, ctx.platformId, request.documentId);
      if (!document) throw new ServiceError('DOCUMENT_NOT_FOUND', `Document ${request.documentId} not found`);
      if (document.status !== 'UPLOADING') throw new ServiceError('CONFLICT', 'The document upload is already complete');
      const size = BigInt(document.sizeBytes) + BigInt(data.length);
      if (size > BigInt(DOCUMENT_MAX_BYTES)) throw new ServiceError('PAYLOAD_TOO_LARGE', `Documents are limited to ${DOCUMENT_MAX_BYTES} bytes`);
      // A retried chunk is stored once.
      if (await this.documents.insertChunk(manager, document.id, request.index, data)) await this.documents.setSize(manager, document.id, size);
      return { received: data.length };
    });
  }

  /** Checks the bytes against the declared type, reviews the document, and reports a rejection as its reason's 400. */
  async complete(ctx: CallerContext, request: CompleteDocumentUploadRequest): Promise<CustomerDocument> {
    const result = await this.transactions.run(async (manager): Promise<{ document: CustomerDocument; review?: DocumentReview; invalid?: ServiceError }> => {
      const document = await this.documents.findForUpdate(manager, ctx.platformId, request.documentId);
      if (!document) throw new ServiceError('DOCUMENT_NOT_FOUND', `Document ${request.documentId} not found`);
      if (document.status !== 'UPLOADING') return { document: toDocument(document) };
      const chunks = await this.documents.chunks(manager, document.id);
      const invalid =
        chunks.length !== request.chunks
          ? 'the upload is incomplete'
          : chunks.length === 0
            ? 'the file is empty'
            : !startsWith(chunks[0], SIGNATURES[document.contentType])
              ? `the file's content is not ${document.contentType}`
              : undefined;
      if (invalid) {
        await this.documents.delete(manager, document.id);
        return {
          document: toDocument(document),
          invalid: ServiceError.invalidField('file', `Document refused: ${invalid}`, { enum: [...DOCUMENT_CONTENT_TYPES] }),
        };
      }
      const hash = createHash('sha256');
      for (const chunk of chunks) hash.update(chunk);
      const review: DocumentReview = ctx.environment === 'sandbox' ? documentReview(document.fileName) : { status: 'PENDING' };
      document.sha256 = hash.digest('hex');
      document.status = review.status;
      document.rejectionReason = review.rejectionReason ?? null;
      document.updatedAt = new Date();
      await this.documents.save(manager, document);
      const reviewed = toDocument(document);
      await this.outbox.add(manager, { subject: CUSTOMERS_EVENTS.documentReviewed, platformId: ctx.platformId, resourceId: document.id, data: reviewed });
      return { document: reviewed, review };
    });
    if (result.invalid) throw result.invalid;
    if (result.review?.rejectionReason) {
      // The document is kept (GET shows it REJECTED); the upload answers with the spec's reason code.
      throw new ServiceError(result.review.rejectionReason, `Document rejected: ${result.review.rejectionReason}`, { documentId: result.document.id, document: result.document });
    }
    return result.document;
  }

  async get(ctx: CallerContext, id: string): Promise<CustomerDocument> {
    const entity = await this.documents.findUploaded(ctx.platformId, id);
    if (!entity) throw new ServiceError('DOCUMENT_NOT_FOUND', `Document ${id} not found`);
    return toDocument(entity);
  }

  async list(ctx: CallerContext, request: ListDocumentsRequest): Promise<Page<CustomerDocument>> {
    if (request.customerId) await this.customers.require(ctx, request.customerId);
    const limit = pageLimit(request.limit);
    const beforeId = decodeCursor(request.cursor, DOCUMENT_CURSOR);
    const rows = await this.documents.listUploaded(ctx.platformId, { customerId: request.customerId, beforeId }, limit + 1);
    return toPage(rows, limit, toDocument, DOCUMENT_CURSOR);
  }
}

function startsWith(bytes: Buffer, signature: number[]): boolean {
  return signature.every((byte, i) => bytes[i] === byte);
}
