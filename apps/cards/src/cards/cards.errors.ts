import { ServiceError } from '@paykit/errors';

/** An unknown card (or another platform's): the reference's 404 code for a referenced resource. */
export function cardNotFound(cardId: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Card ${cardId} not found`);
}
