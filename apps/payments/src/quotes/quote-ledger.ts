import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CompositeStatement, preparedStatement, Statement } from '@paykit/persistence';
import { ledgerRefusalOf } from '../ledger/ledger-outcomes';
import { LedgerRepository } from '../ledger/ledger.repository';
import { EntryKind, LedgerAccountRef, PostingLine } from '../ledger/ledger-entry';
import { refuseWhen } from '../refused-statement';
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
  private async payee(manager: EntityManager, quote: NewQuote): Promise<LedgerAccountRef> {
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

  private async destinationLines(manager: EntityManager, quote: NewQuote, sign: 1n | -1n): Promise<PostingLine[]> {
    return [
      { account: await this.ledger.systemAccount(manager, quote.platformId, quote.destinationCurrency, 'FX_CONVERSION'), amount: -sign * quote.receivingAmount },
      { account: await this.payee(manager, quote), amount: sign * quote.receivingAmount },
    ];
  }

  /**
   * One of the quote's moves as parts of a CompositeStatement (LedgerRepository.postingParts,
   * parts named after `name`), with the refusal a statement must make when its internal account
   * refused it (`refuseWhen` SQL): EXECUTION debits the payer (the source leg; `onlyIf` guards it
   * further), PAYOUT credits the payee (the destination leg), RETURN takes the payout back (an
   * internal payee that spent it refuses), REFUND gives the payer the exact sending amount back.
   */
  async moveParts(manager: EntityManager, quote: NewQuote, move: QuoteMove, name: string, onlyIf?: string): Promise<{ parts: Array<[string, Statement]>; refusal?: string }> {
    const { kind, leg, sign } = MOVES[move];
    const entry = {
      platformId: quote.platformId,
      kind,
      referenceId: quote.id,
      currency: leg === 'SOURCE' ? quote.sourceCurrency : quote.destinationCurrency,
      lines: leg === 'SOURCE' ? await this.sourceLines(manager, quote, sign) : await this.destinationLines(manager, quote, sign),
    };
    const { parts, balance } = this.ledger.postingParts(entry, { name, onlyIf });
    return { parts, refusal: balance && refuseWhen(`NOT EXISTS (SELECT 1 FROM ${balance.part})`, balance.refusal) };
  }

  /** One move in a statement of its own, in the caller's transaction (refused: INSUFFICIENT_FUNDS or BALANCE_LIMIT). */
  async post(manager: EntityManager, quote: NewQuote, move: QuoteMove): Promise<void> {
    const { parts, refusal } = await this.moveParts(manager, quote, move, 'move_');
    const statement = new CompositeStatement();
    for (const [name, part] of parts) statement.add(name, part);
    const { sql, params } = statement.end({ sql: `SELECT CASE ${refusal ?? ''} ELSE true END AS posted`, params: [] });
    try {
      await manager.query(preparedStatement(sql), params);
    } catch (error) {
      throw ledgerRefusalOf(error) ?? error;
    }
  }
}

export type QuoteMove = 'EXECUTION' | 'PAYOUT' | 'RETURN' | 'REFUND';

const MOVES: Record<QuoteMove, { kind: EntryKind; leg: 'SOURCE' | 'DESTINATION'; sign: 1n | -1n }> = {
  EXECUTION: { kind: 'QUOTE_EXECUTION', leg: 'SOURCE', sign: 1n },
  PAYOUT: { kind: 'QUOTE_PAYOUT', leg: 'DESTINATION', sign: 1n },
  RETURN: { kind: 'QUOTE_RETURN', leg: 'DESTINATION', sign: -1n },
  REFUND: { kind: 'QUOTE_REFUND', leg: 'SOURCE', sign: -1n },
};
