import { LEDGER_REFUSAL_REASONS, MAX_WIRE_AMOUNT } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';

/** An internal account that does not exist on the caller's platform (another platform's id included). */
export function accountNotFound(accountId: string, details: Record<string, unknown> = {}): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Internal account ${accountId} not found`, { accountId, ...details });
}

/** A movement on an account that is not ACTIVE (FROZEN or CLOSED): a conflict with the account's state. */
export function accountNotActive(accountId: string, status: string): ServiceError {
  return new ServiceError('CONFLICT', `Internal account ${accountId} is ${status}`, { reason: LEDGER_REFUSAL_REASONS.accountNotActive, accountId, status });
}

/** The account's available balance does not cover the amount. */
export function insufficientFunds(details: Record<string, unknown> = {}): ServiceError {
  return new ServiceError('INVALID_AMOUNT', 'The account does not have enough available funds', { reason: LEDGER_REFUSAL_REASONS.insufficientFunds, ...details });
}

/** A credit that would take the balance past what an amount on the wire can carry exactly. */
export function balanceLimit(details: Record<string, unknown> = {}): ServiceError {
  return new ServiceError('INVALID_AMOUNT', `The account's balance cannot exceed ${MAX_WIRE_AMOUNT} (smallest currency unit)`, {
    reason: LEDGER_REFUSAL_REASONS.balanceLimit,
    ...details,
  });
}
