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
import { Clock, decodeCursor, idCursor, Outbox, pageLimit, toPage, TransactionRunner } from '@paykit/persistence';
import { SandboxRules } from '@paykit/runtime';
import { BeneficialOwnersRepository } from '../beneficial-owners/beneficial-owners.repository';
import { CustomersService } from '../customers/customers.service';
import { VerificationsRepository } from '../verification/verifications.repository';
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
    documentHolder: entity.documentHolder,
    customerId: entity.customerId,
    ...(entity.beneficialOwnerId ? { beneficialOwnerId: entity.beneficialOwnerId } : {}),
    documentType: entity.documentType,
    ...(entity.side ? { side: entity.side } : {}),
    country: entity.country,
    ...(entity.documentNumber ? { documentNumber: entity.documentNumber } : {}),
    ...(entity.issuingAuthority ? { issuingAuthority: entity.issuingAuthority } : {}),
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
    private readonly verifications: VerificationsRepository,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
  ) {}

  /**
   * Starts an upload (or, with `replacesDocumentId`, the replacement of a stored document's file
   * and metadata). The holder is a customer or one of a business customer's beneficial owners.
   */
  async start(ctx: CallerContext, request: StartDocumentUploadRequest): Promise<DocumentUploadStarted> {
    const holder = await this.resolveHolder(ctx, request.documentHolder);
    if (request.replacesDocumentId !== undefined) {
      const target = await this.documents.findUploaded(ctx.platformId, request.replacesDocumentId);
      if (!target || target.documentHolder !== holder.documentHolder) throw documentNotFound(request.replacesDocumentId);
    }
    const now = this.clock.now();
    const entity: DocumentEntity = {
      id: newId('Document'),
      platformId: ctx.platformId,
      documentHolder: holder.documentHolder,
      customerId: holder.customerId,
      beneficialOwnerId: holder.beneficialOwnerId,
      documentType: request.documentType,
      // Version 1 uploads did not say: ZZ is ISO 3166's code for an unknown country.
      country: request.country ?? 'ZZ',
      side: request.side ?? null,
      documentNumber: request.documentNumber ?? null,
      issuingAuthority: request.issuingAuthority ?? null,
      fileName: request.fileName,
      contentType: request.contentType,
      sizeBytes: '0',
      sha256: null,
      status: 'UPLOADING',
      rejectionReason: null,
      replacesDocumentId: request.replacesDocumentId ?? null,
      createdAt: now,
      updatedAt: now,
    };
    await this.documents.insert(entity);
    return { documentId: entity.id, maxBytes: DOCUMENT_MAX_BYTES, chunkBytes: DOCUMENT_CHUNK_BYTES };
  }

  /** A document holder: a (not deleted) customer, or a beneficial owner of one; else 404. */
  private async resolveHolder(ctx: CallerContext, holderId: string): Promise<{ documentHolder: string; customerId: string; beneficialOwnerId: string | null }> {
    if (holderId.startsWith('BeneficialOwner:')) {
      const owner = await this.owners.findById(ctx.platformId, holderId);
      if (!owner) throw new ServiceError('REFERENCE_NOT_FOUND', `Beneficial owner ${holderId} not found`);
      await this.customers.requireActive(ctx, owner.customerId);
      return { documentHolder: owner.id, customerId: owner.customerId, beneficialOwnerId: owner.id };
    }
    const customer = await this.customers.requireActive(ctx, holderId);
    return { documentHolder: customer.id, customerId: customer.id, beneficialOwnerId: null };
  }

  /**
   * DELETE /documents/{id}: the file and its metadata are erased for good. A document the
   * customer has since been submitted for verification with (POST /verifications after its
   * upload or last replacement) is evidence of that review: 409 CONFLICT.
   */
  async delete(ctx: CallerContext, documentId: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const document = await this.documents.findForUpdate(manager, ctx.platformId, documentId);
      if (!document || document.status === 'UPLOADING') throw documentNotFound(documentId);
      if (await this.verifications.submittedSince(manager, ctx.platformId, document.customerId, document.updatedAt)) {
        throw new ServiceError('CONFLICT', 'The document was submitted for verification and is kept as its evidence', { documentId, reason: 'SUBMITTED_FOR_VERIFICATION' });
      }
      await this.documents.delete(manager, document.id);
      await this.outbox.add(manager, { subject: CUSTOMERS_EVENTS.documentDeleted, platformId: ctx.platformId, resourceId: document.id, data: toDocument(document) });
    });
  }

  async appendChunk(ctx: CallerContext, request: AppendDocumentChunkRequest): Promise<{ received: number }> {
    const data = Buffer.from(request.data, 'base64');
    if (data.length === 0 || data.length > DOCUMENT_CHUNK_BYTES) throw ServiceError.invalidField('data', `a chunk holds 1 to ${DOCUMENT_CHUNK_BYTES} bytes`);
    return this.transactions.run(async (manager) => {
      const document = await this.documents.findForUpdate(manager, ctx.platformId, request.documentId);
      if (!document) throw documentNotFound(request.documentId);
      if (document.status !== 'UPLOADING') throw new ServiceError('CONFLICT', 'The document upload is already complete');
      // Byte counts, bounded far below 2^53 by DOCUMENT_MAX_BYTES: numbers are exact.
      const size = Number(document.sizeBytes) + data.length;
      if (size > DOCUMENT_MAX_BYTES) throw new ServiceError('PAYLOAD_TOO_LARGE', `Documents are limited to ${DOCUMENT_MAX_BYTES} bytes`);
      // A retried chunk is stored once.
      if (await this.documents.insertChunk(manager, document.id, request.index, data)) await this.documents.setSize(manager, document.id, size);
      return { received: data.length };
    });
  }

  /** Checks the bytes against the declared type, reviews the document, and reports a rejection as its reason's 400. */
  async complete(ctx: CallerContext, request: CompleteDocumentUploadRequest): Promise<CustomerDocument> {
    const result = await this.transactions.run(async (manager): Promise<{ document: CustomerDocument; review?: DocumentReview; invalid?: ServiceError }> => {
      const staged = await this.documents.findForUpdate(manager, ctx.platformId, request.documentId);
      if (!staged) throw documentNotFound(request.documentId);
      if (staged.status !== 'UPLOADING') return { document: toDocument(staged) };
      const target = staged.replacesDocumentId ? await this.documents.findForUpdate(manager, ctx.platformId, staged.replacesDocumentId) : staged;
      if (!target) throw documentNotFound(staged.replacesDocumentId ?? staged.id);
      const document = staged;
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
      const review: DocumentReview = this.sandbox.applyTo(ctx) ? documentReview(document.fileName) : { status: 'PENDING' };
      if (target !== staged) {
        // A replacement: the stored document takes the new bytes and metadata, keeps its id.
        await this.documents.moveChunks(manager, staged.id, target.id);
        await this.documents.delete(manager, staged.id);
        Object.assign(target, {
          documentType: staged.documentType,
          country: staged.country,
          side: staged.side,
          documentNumber: staged.documentNumber,
          issuingAuthority: staged.issuingAuthority,
          fileName: staged.fileName,
          contentType: staged.contentType,
          sizeBytes: staged.sizeBytes,
        });
      }
      target.sha256 = hash.digest('hex');
      target.status = review.status;
      target.rejectionReason = review.rejectionReason ?? null;
      target.updatedAt = this.clock.now();
      await this.documents.save(manager, target);
      const reviewed = toDocument(target);
      await this.outbox.add(manager, { subject: CUSTOMERS_EVENTS.documentReviewed, platformId: ctx.platformId, resourceId: target.id, data: reviewed });
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
    if (!entity) throw documentNotFound(id);
    return toDocument(entity);
  }

  async list(ctx: CallerContext, request: ListDocumentsRequest): Promise<Page<CustomerDocument>> {
    if (request.customerId) await this.customers.require(ctx, request.customerId);
    const limit = pageLimit(request.limit);
    const beforeId = decodeCursor(request.cursor, DOCUMENT_CURSOR);
    const filter = { customerId: request.customerId, documentHolder: request.documentHolder };
    const [rows, totalCount] = await Promise.all([
      this.documents.listUploaded(ctx.platformId, { ...filter, beforeId }, limit + 1),
      this.documents.countUploaded(ctx.platformId, filter),
    ]);
    return { ...toPage(rows, limit, toDocument, DOCUMENT_CURSOR), totalCount };
  }
}

function documentNotFound(id: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Document ${id} not found`);
}

function startsWith(bytes: Buffer, signature: number[]): boolean {
  return signature.every((byte, i) => bytes[i] === byte);
}
