import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The real API's public document, beside the project (`../shared/reference`), when it is there. */
export const REFERENCE_DOCUMENT = resolve(__dirname, '../../../shared/reference/openapi.yaml');
export const REFERENCE_JSON = resolve(__dirname, '../../../shared/reference/openapi.json');

export function referenceDocumentPresent(): boolean {
  return existsSync(REFERENCE_DOCUMENT);
}
