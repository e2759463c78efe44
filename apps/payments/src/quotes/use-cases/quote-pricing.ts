import { Injectable } from '@nestjs/common';
import { amountFromWire, amountToWire, basisPointsFromWire, CreateQuoteMessage, fitsOnWire } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { CurrencyCatalog } from '../../currencies/currency-catalog';
import { ExchangeRatesService, PricedCorridor } from '../../exchange-rates/exchange-rates.service';
import { Corridor, PlatformFee, Price, priceReceiving, priceSending } from '../../exchange-rates/pricing';

/** Same-currency payments (a UMA receiver in the sender's currency) convert at 1 with no conversion fee. */
function sameCurrencyCorridor(currency: string, maxTransferAmount: bigint): Corridor {
  return {
    source: currency,
    destination: currency,
    rail: 'BANK_TRANSFER',
    rateMicros: 1_000_000n,
    fixedFee: 0n,
    variableFeeBps: 0n,
    minSendingAmount: 1n,
    maxSendingAmount: maxTransferAmount,
  };
}

/** The corridor a new quote converts on and the price it locks. */
@Injectable()
export class QuotePricing {
  constructor(
    private readonly rates: ExchangeRatesService,
    private readonly currencies: CurrencyCatalog,
  ) {}

  async corridorFor(source: string, destination: string, rail: CreateQuoteMessage['destination']['paymentRail']): Promise<PricedCorridor> {
    if (source !== destination) return this.rates.corridor(source, destination, rail);
    const currency = await this.currencies.get(source);
    return { corridor: sameCurrencyCorridor(source, currency.maxTransferAmount), source: currency, destination: currency };
  }

  /**
   * Prices the locked side. Fees come off the sending amount (variable fees rounded up); the rest
   * converts and rounds down to the receiving currency's smallest unit; a locked receiving amount
   * is met exactly by the smallest sending amount that reaches it.
   */
  price(priced: PricedCorridor, request: CreateQuoteMessage, configured?: PlatformFee): Price {
    const { corridor, source, destination } = priced;
    const override = request.platformFeeOverride;
    if (override && override.platformFixedFee.currency !== source.code) {
      throw ServiceError.invalidInput([
        { field: 'platformFeeOverride.platformFixedFee.currency', message: `the platform's fixed fee must be in the sending currency ${source.code}` },
      ]);
    }
    const platform: PlatformFee = override
      ? { fixed: amountFromWire(override.platformFixedFee.amount), variableBps: basisPointsFromWire(override.platformVariableFeeBps) }
      : (configured ?? { fixed: 0n, variableBps: 0n });
    const amount = amountFromWire(request.lockedCurrencyAmount);
    let price: Price;
    try {
      price =
        request.lockedCurrencySide === 'SENDING'
          ? priceSending(corridor, amount, source.decimals, destination.decimals, platform)
          : priceReceiving(corridor, amount, source.decimals, destination.decimals, platform);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw ServiceError.invalidInput([{ field: 'platformFeeOverride.platformVariableFeeBps', message: 'variable fees must stay below 100% of the sending amount' }]);
    }
    if (price.sending < corridor.minSendingAmount || price.sending > corridor.maxSendingAmount || price.receiving <= 0n) {
      throw new ServiceError(
        'AMOUNT_OUT_OF_RANGE',
        `${source.code} to ${destination.code} takes sending amounts from ${corridor.minSendingAmount} to ${corridor.maxSendingAmount} (smallest unit), and must deliver more than 0 after fees`,
        {
          minSendingAmount: amountToWire(corridor.minSendingAmount),
          maxSendingAmount: amountToWire(corridor.maxSendingAmount),
          // Far outside the corridor, a price can be beyond what an amount carries: then it is left out.
          sendingAmount: fitsOnWire(price.sending) ? amountToWire(price.sending) : undefined,
          receivingAmount: fitsOnWire(price.receiving) ? amountToWire(price.receiving) : undefined,
        },
      );
    }
    return price;
  }
}
