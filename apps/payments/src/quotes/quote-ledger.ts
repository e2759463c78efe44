import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { LedgerRepository } from '../ledger/ledger.repository';
import { EntryKind, LedgerAccountRef, PostingLine } from '../ledger/ledger-entry';
import { Statement } from '@paykit/persistence';
import { QuoteEntity } from './entities/quote.entity';
import { NewQuote } from './quotes.repository';

/**
 * A quote's money on the ledger, one balanced entry per currency:
 * - source leg (QUOTE_EXECUTION, source currency): the payer -sending; FX_CONVERSION +(sending - fees); FEES +fees;
 * - destination leg (QUOTE_PAYOUT, destination currency): FX_CONVERSION -receiving; the payee +receiving.
 * A refund (QUOTE_REFUND) and a return (QUOTE_RETURN) are the same lines negated. The conversion
 * account of each currency carries the open position of payments between their two legs.
 */
@Injectable()
export class QuoteLedger {
  constructor(private readonly ledger: LedgerRepository) {}

  /** The payer: the source internal account (checked: it cannot go below zero), or external clearing for real-time funding. */
  private async payer(manager: EntityManager, quote: NewQuote): Promise<LedgerAccountRef> {
    return quote.sourceAccountId !== null
      ? this.ledger.holdingRef(quote.sourceAccountId, quote.sourceCurrency)
      : this.ledger.systemAccount(manager, quote.platformId, quote.sourceCurrency, 'EXTERNAL_CLEARING');
  }

  /** The payee: an internal account of this deployment, or external clearing (bank payouts, other UMA providers). */
  private async payee(manager: EntityManager, quote: QuoteEntity): Promise<LedgerAccountRef> {
    const internal = quote.destinationKind === 'INTERNAL_ACCOUNT' || quote.destinationKind === 'UMA_CUSTOMER';
    return internal
      ? this.ledger.holdingRef(quote.destinationAccountId!, quote.destinationCurrency)
      : this.ledger.systemAccount(manager, quote.platformId, quote.destinationCurrency, 'EXTERNAL_CLEARING');
  }

  private async sourceLines(manager: EntityManager, quote: NewQuote, sign: 1n | -1n): Promise<PostingLine[]> {
    const fees = quote.serviceFee + quote.platformFee;
    const lines: PostingLine[] = [
      { account: await this.payer(manager, quote), amount: -sign * quote.sendingAmount },
      { account: await this.ledger.systemAccount(manager, quote.platformId, quote.sourceCurrency, 'FX_CONVERSION'), amount: sign * (quote.sendingAmount - fees) },
    ];
    if (fees > 0n) lines.push({ account: await this.ledger.systemAccount(manager, quote.platformId, quote.sourceCurrency, 'FEES'), amount: sign * fees });
    return lines;
  }

  private async destinationLines(manager: EntityManager, quote: QuoteEntity, sign: 1n | -1n): Promise<PostingLine[]> {
    return [
      { account: await this.ledger.systemAccount(manager, quote.platformId, quote.destinationCurrency, 'FX_CONVERSION'), amount: -sign * quote.receivingAmount },
      { account: await this.payee(manager, quote), amount: sign * quote.receivingAmount },
    ];
  }

  /**
   * The source leg as parts of an execution's statement (see LedgerRepository.postingParts): an
   * internal payer's debit is the `balance` part, guarded by `onlyIf` too; no `balance` row means
   * the payer could not pay the sending amount.
   */
  async sourceLegParts(manager: EntityManager, quote: NewQuote, onlyIf: string): Promise<Array<[string, Statement]>> {
    const entry = { platformId: quote.platformId, kind: 'QUOTE_EXECUTION' as const, referenceId: quote.id, currency: quote.sourceCurrency };
    return this.ledger.postingParts({ ...entry, lines: await this.sourceLines(manager, quote, 1n) }, onlyIf).parts;
  }

  async payOut(manager: EntityManager, quote: QuoteEntity): Promise<void> {
    await this.postLeg(manager, quote, 'QUOTE_PAYOUT', 'DESTINATION', 1n);
  }

  /** The payout taken back (returned by the receiving bank). An internal payee that spent it meanwhile aborts with INSUFFICIENT_FUNDS. */
  async returnPayout(manager: EntityManager, quote: QuoteEntity): Promise<void> {
    await this.postLeg(manager, quote, 'QUOTE_RETURN', 'DESTINATION', -1n);
  }

  /** The exact sending amount back to the payer, fees included. */
  async refundSource(manager: EntityManager, quote: QuoteEntity): Promise<void> {
    await this.postLeg(manager, quote, 'QUOTE_REFUND', 'SOURCE', -1n);
  }

  /** One leg as a balanced entry in its currency; a sign of -1 posts the same lines negated (refund, return). */
  private async postLeg(manager: EntityManager, quote: QuoteEntity, kind: EntryKind, leg: 'SOURCE' | 'DESTINATION', sign: 1n | -1n): Promise<void> {
    await this.ledger.post(manager, {
      platformId: quote.platformId,
      kind,
      referenceId: quote.id,
      currency: leg === 'SOURCE' ? quote.sourceCurrency : quote.destinationCurrency,
      lines: leg === 'SOURCE' ? await this.sourceLines(manager, quote, sign) : await this.destinationLines(manager, quote, sign),
    });
  }
}
