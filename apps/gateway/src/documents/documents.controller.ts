import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  CallerContext,
  CustomerDocument,
  CUSTOMERS_SUBJECTS,
  DOCUMENT_CHUNK_BYTES,
  DOCUMENT_CONTENT_TYPES,
  DOCUMENT_MAX_BYTES,
  DocumentContentType,
  ListDocumentsRequest,
  Page,
} from '@paykit/contracts';
import { FieldError, ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { toFieldErrors, VALIDATION_OPTIONS } from '@paykit/validation';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { multipartReadError } from '../http/edge-errors';
import { DocumentPageDto, DocumentReplaceFields, DocumentReplaceFormDto, DocumentResponseDto, DocumentUploadFields, DocumentUploadFormDto } from './dto/document.dto';

interface ReceivedFile {
  fileName: string;
  mimeType: string;
  chunks: Buffer[];
}

@ApiTags('Documents')
@ApiBasicAuth('BasicAuth')
@Controller('documents')
export class DocumentsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Upload a KYC/KYB document',
    description:
      'multipart/form-data with `documentHolder` (a customer, or a beneficial owner of a business customer), `documentType`, `country`, optional `side`, ' +
      '`documentNumber`, `issuingAuthority`, and `file`.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: DocumentUploadFormDto })
  @ApiCreatedResponse({ type: DocumentResponseDto })
  @ApiErrors(400, 401, 404, 410, 413, 415)
  async upload(@Req() request: FastifyRequest, @Caller() caller: CallerContext): Promise<CustomerDocument> {
    const { fields, file } = await readMultipart(request, 'POST /documents');
    const { form, received } = validateForm(DocumentUploadFields, fields, file);
    return this.store(caller, { documentHolder: form.documentHolder, ...metadataOf(form) }, received);
  }

  @Put(':documentId')
  @ApiOperation({
    summary: 'Replace a document',
    description:
      'multipart/form-data like the upload, without `documentHolder`: the document keeps its id and holder, takes the new file and metadata, and is ' +
      'reviewed again (e.g. after a rejection; the same sandbox file-name rules).',
  })
  @ApiParam({ name: 'documentId', example: 'Document:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: DocumentReplaceFormDto })
  @ApiOkResponse({ type: DocumentResponseDto })
  @ApiErrors(400, 401, 404, 410, 413, 415)
  async replace(@Param('documentId') documentId: string, @Req() request: FastifyRequest, @Caller() caller: CallerContext): Promise<CustomerDocument> {
    const { fields, file } = await readMultipart(request, 'PUT /documents/{documentId}');
    const { form, received } = validateForm(DocumentReplaceFields, fields, file);
    const current = await this.services.request(CUSTOMERS_SUBJECTS.getDocument, { documentId }, caller);
    return this.store(caller, { documentHolder: current.documentHolder, replacesDocumentId: documentId, ...metadataOf(form) }, received);
  }

  @Delete(':documentId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a document',
    description: 'Erases the file and its metadata for good. A document the customer has been submitted for verification with since its upload answers 409 CONFLICT.',
  })
  @ApiParam({ name: 'documentId', example: 'Document:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiErrors(401, 404, 409)
  async delete(@Param('documentId') documentId: string, @Caller() caller: CallerContext): Promise<void> {
    await this.services.request(CUSTOMERS_SUBJECTS.deleteDocument, { documentId }, caller);
  }

  /** Sends the file to the customers service in chunks and completes the upload (or replacement). */
  private async store(
    caller: CallerContext,
    target: { documentHolder: string; replacesDocumentId?: string } & Omit<DocumentReplaceFields, never>,
    file: ReceivedFile,
  ): Promise<CustomerDocument> {
    const started = await this.services.request(
      CUSTOMERS_SUBJECTS.startDocumentUpload,
      { ...target, fileName: file.fileName, contentType: file.mimeType as DocumentContentType },
      caller,
    );
    const bytes = Buffer.concat(file.chunks);
    let index = 0;
    for (let offset = 0; offset < bytes.length; offset += DOCUMENT_CHUNK_BYTES, index += 1) {
      const data = bytes.subarray(offset, offset + DOCUMENT_CHUNK_BYTES).toString('base64');
      await this.services.request(CUSTOMERS_SUBJECTS.appendDocumentChunk, { documentId: started.documentId, index, data }, caller);
    }
    return this.services.request(CUSTOMERS_SUBJECTS.completeDocumentUpload, { documentId: started.documentId, chunks: index }, caller);
  }

  @Get()
  @ApiOperation({ summary: "List documents' metadata", description: 'Newest first, cursor-paginated; filter by `documentHolder` or `customerId`.' })
  @ApiOkResponse({ type: DocumentPageDto })
  @ApiErrors(400, 401, 404)
  list(@Query() query: ListDocumentsRequest, @Caller() caller: CallerContext): Promise<Page<CustomerDocument>> {
    return this.services.request(CUSTOMERS_SUBJECTS.listDocuments, query, caller);
  }

  @Get(':documentId')
  @ApiOperation({ summary: "Get a document's metadata" })
  @ApiParam({ name: 'documentId', example: 'Document:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: DocumentResponseDto })
  @ApiErrors(401, 404)
  get(@Param('documentId') documentId: string, @Caller() caller: CallerContext): Promise<CustomerDocument> {
    return this.services.request(CUSTOMERS_SUBJECTS.getDocument, { documentId }, caller);
  }
}

/** The form's text fields and its one file; bounded by the 10 MB file limit (the parts are read here, then sent on in chunks). */
async function readMultipart(request: FastifyRequest, route: string): Promise<{ fields: Record<string, string>; file: ReceivedFile | undefined }> {
  if (!request.isMultipart()) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `${route} takes multipart/form-data`);
  const fields: Record<string, string> = {};
  let file: ReceivedFile | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 10 } })) {
      if (part.type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        file = { fileName: part.filename, mimeType: part.mimetype, chunks };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw multipartReadError(error);
  }
  return { fields, file };
}

/** The metadata fields of a validated form, field by field. */
function metadataOf(form: DocumentReplaceFields): DocumentReplaceFields {
  return { documentType: form.documentType, country: form.country, side: form.side, documentNumber: form.documentNumber, issuingAuthority: form.issuingAuthority };
}

/** Every problem of the form at once, like a JSON body's validation. */
function validateForm<T extends object>(type: ClassConstructor<T>, fields: Record<string, string>, file: ReceivedFile | undefined): { form: T; received: ReceivedFile } {
  const form = plainToInstance(type, fields);
  const errors: FieldError[] = toFieldErrors(validateSync(form, VALIDATION_OPTIONS));
  if (!file) errors.push({ field: 'file', message: 'file is required' });
  else if (!(DOCUMENT_CONTENT_TYPES as readonly string[]).includes(file.mimeType)) {
    errors.push({ field: 'file', message: `file must be one of ${DOCUMENT_CONTENT_TYPES.join(', ')} (got ${file.mimeType})`, constraint: { enum: [...DOCUMENT_CONTENT_TYPES] } });
  } else if (file.chunks.every((chunk) => chunk.length === 0)) errors.push({ field: 'file', message: 'file is empty' });
  if (errors.length > 0 || !file) throw ServiceError.invalidInput(errors);
  return { form, received: file };
}
