import { Inject, Injectable } from '@nestjs/common';
import { amountToWire, CallerContext, Hold, LEDGER_REFUSAL_REASONS, ledgerRefusalReason, MAX_WIRE_AMOUNT, PAYMENTS_SUBJECTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';

/**
 * The payments service's ledger, as the card network uses it. Every money step carries a
 * caller key derived from the card transaction (`<CardTransaction id>:<step>`), so a
 * redelivered step answers the first result and never moves money twice.
 */
@Injectable()
export class LedgerClient {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  hold(ctx: CallerContext, cardTransactionId: string, step: string, accountId: string, amount: bigint, currency: string): Promise<Hold> {
    return this.services.request(
      PAYMENTS_SUBJECTS.createHold,
      { callerKey: `${cardTransactionId}:${step}`, accountId, amount: toWire(amount), currency, reference: cardTransactionId },
      ctx,
    );
  }

  capture(ctx: CallerContext, cardTransactionId: string, step: string, holdId: string, amount: bigint): Promise<Hold> {
    return this.services.request(PAYMENTS_SUBJECTS.captureHold, { callerKey: `${cardTransactionId}:${step}`, holdId, amount: toWire(amount) }, ctx);
  }

  /** `step` tells apart the releases of one transaction's holds (a re-sized authorization has had several). */
  release(ctx: CallerContext, cardTransactionId: string, holdId: string, step = 'release'): Promise<Hold> {
    return this.services.request(PAYMENTS_SUBJECTS.releaseHold, { callerKey: `${cardTransactionId}:${step}`, holdId }, ctx);
  }

  refund(ctx: CallerContext, cardTransactionId: string, sequence: number, holdId: string, amount: bigint): Promise<Hold> {
    return this.services.request(PAYMENTS_SUBJECTS.createRefund, { callerKey: `${cardTransactionId}:return-${sequence}`, holdId, amount: toWire(amount) }, ctx);
  }

  /**
   * Puts money back on a funding account. The payments contract offers no keyed credit
   * message, so this uses the sandbox funding credit; the card transaction row guards it
   * (a credit is applied only by the step that moved the row out of its open status).
   */
  async credit(ctx: CallerContext, accountId: string, amount: bigint): Promise<void> {
    await this.services.request(PAYMENTS_SUBJECTS.fundInternalAccount, { accountId, amount: toWire(amount) }, ctx);
  }
}

export function isInsufficientFunds(error: unknown): boolean {
  return ledgerRefusalReason(error) === LEDGER_REFUSAL_REASONS.insufficientFunds;
}

/** The ledger refused the funding account itself (unknown, not ACTIVE, other currency): a decline, not a failure. */
export function isAccountRefusal(error: unknown): boolean {
  return (
    error instanceof ServiceError &&
    (error.code === 'REFERENCE_NOT_FOUND' || error.code === 'INVALID_CURRENCY' || ledgerRefusalReason(error) === LEDGER_REFUSAL_REASONS.accountNotActive)
  );
}

/** Every ledger step moves a positive amount; one a JSON number cannot carry is refused here, not rounded. */
function toWire(amount: bigint): number {
  if (amount <= 0n || amount > MAX_WIRE_AMOUNT) throw new ServiceError('INVALID_AMOUNT', `Amount ${amount} is out of range`);
  return amountToWire(amount);
}
