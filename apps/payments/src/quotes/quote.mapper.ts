import { amountToWire, Quote, QuotePaymentInstructions } from '@paykit/contracts';
import { CurrencyInfo } from '../currencies/currencies.repository';
import { toCurrency } from '../currencies/currency-catalog';
import { RATE_SCALE } from '../exchange-rates/pricing';
import { QuoteEntity } from './entities/quote.entity';

/** The sandbox bank account real-time funded quotes are paid to (`POST /sandbox/send` stands in for the transfer). */
function paymentInstructions(quote: QuoteEntity): QuotePaymentInstructions[] | undefined {
  if (quote.sourceType !== 'REALTIME_FUNDING' || quote.fundingReference === null) return undefined;
  return [
    {
      instructionsNotes: `Send exactly ${quote.sendingAmount} (smallest unit of ${quote.sourceCurrency}) quoting the reference; the quote executes once the funds arrive.`,
      isPlatformAccount: false,
      accountOrWalletInfo: { accountType: `${quote.sourceCurrency}_ACCOUNT`, reference: quote.fundingReference, currency: quote.sourceCurrency },
    },
  ];
}

/** The Quote resource exactly as the API returns it. A PENDING quote past its lock reads EXPIRED even before the expiry job ran. */
export function toQuote(quote: QuoteEntity, sending: CurrencyInfo, receiving: CurrencyInfo, now: Date): Quote {
  const status = quote.status === 'PENDING' && quote.expiresAt <= now ? 'EXPIRED' : quote.status;
  const instructions = status === 'PENDING' ? paymentInstructions(quote) : undefined;
  const multiplier = Number(quote.rateMicros) / Number(RATE_SCALE);
  const variableFee = quote.serviceFee - quote.fixedFee;
  return {
    id: quote.id,
    status,
    createdAt: quote.createdAt.toISOString(),
    expiresAt: quote.expiresAt.toISOString(),
    source: {
      sourceType: quote.sourceType,
      ...(quote.sourceAccountId !== null ? { accountId: quote.sourceAccountId } : {}),
      ...(quote.customerId !== null ? { customerId: quote.customerId } : {}),
      ...(quote.sourceType === 'REALTIME_FUNDING' ? { currency: quote.sourceCurrency } : {}),
      ...(quote.cryptoNetwork !== null ? { cryptoNetwork: quote.cryptoNetwork } : {}),
    },
    destination:
      quote.destinationType === 'ACCOUNT'
        ? { destinationType: 'ACCOUNT', accountId: quote.destinationAccountId!, paymentRail: quote.paymentRail }
        : { destinationType: 'UMA_ADDRESS', umaAddress: quote.destinationUmaAddress!, currency: quote.destinationCurrency },
    sendingCurrency: toCurrency(sending),
    receivingCurrency: toCurrency(receiving),
    totalSendingAmount: amountToWire(quote.sendingAmount),
    totalReceivingAmount: amountToWire(quote.receivingAmount),
    exchangeRate: Number((1 / multiplier).toPrecision(8)),
    feesIncluded: amountToWire(quote.serviceFee + quote.platformFee),
    platformFeesIncluded: amountToWire(quote.platformFee),
    ...(instructions ? { paymentInstructions: instructions } : {}),
    transactionId: quote.transactionId,
    ...(quote.extra.counterpartyInformation ? { counterpartyInformation: quote.extra.counterpartyInformation } : {}),
    rateDetails: {
      counterpartyMultiplier: multiplier,
      counterpartyFixedFee: 0,
      serviceApiMultiplier: multiplier,
      serviceApiFixedFee: amountToWire(quote.fixedFee),
      serviceApiVariableFeeRate: quote.variableFeeBps / 10_000,
      serviceApiVariableFeeAmount: amountToWire(variableFee),
    },
    ...(quote.description !== null ? { description: quote.description } : {}),
    ...(quote.failureReason !== null ? { failureReason: quote.failureReason } : {}),
  };
}
