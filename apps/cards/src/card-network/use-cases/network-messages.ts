import { CARD_CURRENCY_DETAILS, CardMerchant, CardTransactionType, Currency, CurrencyInput, decimalScale, fitsOnWire, MAX_WIRE_AMOUNT } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { NetworkCard } from '../../cards/cards.repository';

/** One network message the issuer answers: an authorization of some kind. */
export interface NetworkMessage {
  id: string;
  token: string;
  type: CardTransactionType;
  amount: bigint;
  currency: Currency;
  merchant: CardMerchant;
}

/** The card currency as a Currency object (the catalogue's entry; a currency outside it is named by its code). */
export function cardCurrencyOf(card: NetworkCard): Currency {
  const details = CARD_CURRENCY_DETAILS[card.currencyCode as keyof typeof CARD_CURRENCY_DETAILS] as (typeof CARD_CURRENCY_DETAILS)[keyof typeof CARD_CURRENCY_DETAILS] | undefined;
  if (!details) return { code: card.currencyCode, name: card.currencyCode, symbol: card.currencyCode, decimals: 0 };
  return { code: details.code, name: details.name, symbol: details.symbol, decimals: details.decimals };
}

/**
 * A network message's amount in the card currency's smallest unit. The message is in the card's
 * currency (its code, or no code at all), or in the fiat currency the card's stablecoin is pegged
 * to (a USDC card takes USD at par: one cent is 10^4 of USDC's smallest unit). Anything else, or
 * `decimals` that are not the named currency's, is refused with the field named.
 */
export function inCardCurrency(card: NetworkCard, input: CurrencyInput, amount: bigint): { amount: bigint; currency: Currency } {
  const currency = cardCurrencyOf(card);
  const pegged = CARD_CURRENCY_DETAILS[card.currencyCode as keyof typeof CARD_CURRENCY_DETAILS]?.peggedTo;
  const checkDecimals = (decimals: number): void => {
    if (input.decimals !== undefined && input.decimals !== decimals) {
      throw new ServiceError('INVALID_CURRENCY', `${input.code ?? currency.code} has ${decimals} decimals, not ${input.decimals}`, { field: 'currency.decimals' });
    }
  };
  if (input.code === undefined || input.code === currency.code) {
    checkDecimals(currency.decimals);
    return { amount, currency };
  }
  if (pegged && input.code === pegged.code) {
    checkDecimals(pegged.decimals);
    const scale = decimalScale(currency.decimals - pegged.decimals);
    if (!fitsOnWire(amount * scale)) {
      throw ServiceError.invalidField('amount', `amount is more than a ${currency.code} card takes: at most ${MAX_WIRE_AMOUNT / scale} in ${pegged.code}'s smallest unit`);
    }
    return { amount: amount * scale, currency };
  }
  throw new ServiceError('INVALID_CURRENCY', `The card is in ${currency.code}${pegged ? ` (or ${pegged.code} at par)` : ''}, not ${input.code}`, { field: 'currency.code' });
}

export function merchantOf(input: CardMerchant): CardMerchant {
  return { descriptor: input.descriptor, ...(input.mcc !== undefined ? { mcc: input.mcc } : {}), ...(input.country !== undefined ? { country: input.country } : {}) };
}

/** The network's token of a simulated message; it names the card transaction it becomes. */
export function issuerTokenOf(cardTransactionId: string): string {
  return `itx_${cardTransactionId.slice('CardTransaction:'.length).replace(/-/g, '')}`;
}
