import { DocumentRejectionReason, DocumentStatus, sandboxOutcome } from '@paykit/contracts';

export interface DocumentReview {
  status: DocumentStatus;
  rejectionReason?: DocumentRejectionReason;
}

/** Document review in the sandbox, by the last 3 characters of the file name without its extension. */
export const DOCUMENT_REVIEW_TABLE: Readonly<Record<string, DocumentReview>> = {
  '001': { status: 'PENDING' },
  '002': { status: 'REJECTED', rejectionReason: 'LOW_QUALITY' },
  '003': { status: 'REJECTED', rejectionReason: 'DATA_MISMATCH' },
  '004': { status: 'REJECTED', rejectionReason: 'EXPIRED' },
  '005': { status: 'REJECTED', rejectionReason: 'SUSPECTED_FRAUD' },
  '006': { status: 'REJECTED', rejectionReason: 'UNSUITABLE_DOCUMENT' },
  '007': { status: 'REJECTED', rejectionReason: 'INCOMPLETE' },
};

export function documentReview(fileName: string): DocumentReview {
  return sandboxOutcome(DOCUMENT_REVIEW_TABLE, fileName.replace(/\.[^.]*$/, ''), { status: 'APPROVED' });
}
