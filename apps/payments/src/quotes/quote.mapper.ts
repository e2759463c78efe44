import { amountToWire, Quote, QuotePaymentInstructions } from '@paykit/contracts';
import { CurrencyInfo } from '../currencies/currencies.repository';
import { derivedPaymentAccountInfo } from '../internal-accounts/funding-instructions';
import { toCurrency } from '../currencies/currency-catalog';
import { RATE_SCALE } from '../exchange-rates/pricing';
import { QuoteEntity } from './entities/quote.entity';

/**
 * How a PENDING quote is paid. REALTIME_FUNDING: the bank or wallet details the funds go to, in
 * the shape the API gives the source currency's account type (every property it requires),
 * derived from the quote id and carrying the quote's reference (`POST /sandbox/send` stands in for
 * the transfer). An EMBEDDED_WALLET source: the `payloadToSign` whose stamp, sent as
 * `Service-Wallet-Signature`, executes the quote in one call.
 */
function paymentInstructions(quote: QuoteEntity): QuotePaymentInstructions[] | undefined {
  const signing = quote.extra.walletSignature;
  if (signing) {
    return [
      {
        instructionsNotes: 'Stamp payloadToSign, byte for byte, with a session key of the wallet and send it as Service-Wallet-Signature on POST /quotes/{quoteId}/execute.',
        isPlatformAccount: false,
        accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign: signing.payloadToSign },
      },
    ];
  }
  if (quote.sourceType !== 'REALTIME_FUNDING' || quote.fundingReference === null) return undefined;
  const details = derivedPaymentAccountInfo(quote.sourceCurrency, quote.id, { reference: quote.fundingReference, cryptoNetwork: quote.cryptoNetwork ?? undefined });
  return [
    {
      instructionsNotes: `Send exactly ${quote.sendingAmount} (smallest unit of ${quote.sourceCurrency})${details?.reference ? ' quoting the reference' : ''}; the quote executes once the funds arrive.`,
      isPlatformAccount: quote.customerId === null,
      accountOrWalletInfo: { ...(details ?? { accountType: `${quote.sourceCurrency}_ACCOUNT`, reference: quote.fundingReference }), currency: quote.sourceCurrency },
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
    ...(status === 'PENDING_AUTHORIZATION' && quote.extra.sca ? { scaChallenge: quote.extra.sca.challenge } : {}),
  };
}
