import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, FindOptionsWhere, LessThan, Not } from 'typeorm';
import { DocumentEntity } from './entities/document.entity';

/**
 * Every query takes the platform first: another platform's document does not exist here. A
 * document still UPLOADING is visible only to its upload (get and list skip it).
 */
@Injectable()
export class DocumentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(document: DocumentEntity): Promise<void> {
    await this.dataSource.manager.insert(DocumentEntity, document);
  }

  /** Locks the document for the rest of the transaction: its chunks and review never interleave. */
  findForUpdate(manager: EntityManager, platformId: string, id: string): Promise<DocumentEntity | null> {
    return manager.findOne(DocumentEntity, { where: { platformId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Stores a chunk once: false for a retried chunk, which changes nothing. */
  async insertChunk(manager: EntityManager, documentId: string, index: number, data: Buffer): Promise<boolean> {
    const inserted: unknown[] = await manager.query(
      'INSERT INTO document_chunk (document_id, chunk_index, data) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING chunk_index',
      [documentId, index, data],
    );
    return inserted.length > 0;
  }

  async setSize(manager: EntityManager, documentId: string, sizeBytes: number): Promise<void> {
    await manager.update(DocumentEntity, { id: documentId }, { sizeBytes: String(sizeBytes) });
  }

  async chunks(manager: EntityManager, documentId: string): Promise<Buffer[]> {
    const rows: Array<{ data: Buffer | Uint8Array }> = await manager.query('SELECT data FROM document_chunk WHERE document_id = $1 ORDER BY chunk_index', [documentId]);
    return rows.map((row) => Buffer.from(row.data));
  }

  /** Moves a finished replacement's bytes to the document it replaces (the replacement row goes away). */
  async moveChunks(manager: EntityManager, fromDocumentId: string, toDocumentId: string): Promise<void> {
    await manager.query('DELETE FROM document_chunk WHERE document_id = $1', [toDocumentId]);
    await manager.query('UPDATE document_chunk SET document_id = $2 WHERE document_id = $1', [fromDocumentId, toDocumentId]);
  }

  /** A refused upload, a finished replacement's staging row or a deleted document: nothing is left behind. */
  async delete(manager: EntityManager, documentId: string): Promise<void> {
    await manager.query('DELETE FROM document_chunk WHERE document_id = $1', [documentId]);
    await manager.delete(DocumentEntity, { id: documentId });
  }

  async save(manager: EntityManager, document: DocumentEntity): Promise<void> {
    await manager.save(DocumentEntity, document);
  }

  findUploaded(platformId: string, id: string): Promise<DocumentEntity | null> {
    return this.dataSource.manager.findOne(DocumentEntity, { where: { platformId, id, status: Not('UPLOADING') } });
  }

  /** Uploaded documents, newest first; `beforeId` is the cursor (ids sort by creation). */
  listUploaded(platformId: string, filter: DocumentFilter & { beforeId?: string }, limit: number): Promise<DocumentEntity[]> {
    const where = uploadedWhere(platformId, filter);
    return this.dataSource.manager.find(DocumentEntity, {
      where: filter.beforeId ? { ...where, id: LessThan(filter.beforeId) } : where,
      order: { id: 'DESC' },
      take: limit,
    });
  }

  /** How many uploaded documents match the filter on all pages. */
  countUploaded(platformId: string, filter: DocumentFilter): Promise<number> {
    return this.dataSource.manager.count(DocumentEntity, { where: uploadedWhere(platformId, filter) });
  }
}

/** What GET /documents filters on (the cursor aside). */
export interface DocumentFilter {
  customerId?: string;
  documentHolder?: string;
}

/** Documents whose upload finished, of the filter. */
function uploadedWhere(platformId: string, filter: DocumentFilter): FindOptionsWhere<DocumentEntity> {
  return {
    platformId,
    status: Not('UPLOADING'),
    ...(filter.customerId ? { customerId: filter.customerId } : {}),
    ...(filter.documentHolder ? { documentHolder: filter.documentHolder } : {}),
  };
}
