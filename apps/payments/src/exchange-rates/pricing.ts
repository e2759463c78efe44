import { amountFromWire, basisPointsFromWire, decimalScale, PaymentRail } from '@paykit/contracts';

/** Rates are kept as integers: destination major units per source major unit, times 10^6. */
export const RATE_SCALE = 1_000_000n;
const BPS = 10_000n;

/** One corridor of the rate table: a currency pair on one payout rail. */
export interface Corridor {
  source: string;
  destination: string;
  rail: PaymentRail;
  /** Destination major units per source major unit, times 10^6 (e.g. 17.25 MXN per USD = 17_250_000n). */
  rateMicros: bigint;
  /** Fixed fee, smallest unit of the source currency. */
  fixedFee: bigint;
  /** Variable fee in basis points of the sending amount. */
  variableFeeBps: bigint;
  minSendingAmount: bigint;
  maxSendingAmount: bigint;
}

/** The platform's own fee on one quote, in the sending currency (`platformFeeOverride`). */
export interface PlatformFee {
  fixed: bigint;
  variableBps: bigint;
}

export interface Price {
  /** What leaves the source, fees included (smallest unit of the source currency). */
  sending: bigint;
  /** What the destination gets (smallest unit of the destination currency). */
  receiving: bigint;
  /** The service's fees, in the source currency. */
  serviceFee: bigint;
  /** The platform's fees, in the source currency. */
  platformFee: bigint;
}

export const NO_PLATFORM_FEE: PlatformFee = { fixed: 0n, variableBps: 0n };

/** A platform's configured fee (`PATCH /config` feeConfigs), as far as pricing reads it. */
export interface ConfiguredFee {
  feeType: string;
  sourceCurrency: string;
  variableFeeBps: number;
  fixedFee: { amount: number; currency: string };
}

/**
 * The platform's fee on a payment from `source` to `destination`: its CROSS_CURRENCY_TRANSACTION
 * fee for the sending currency, on cross-currency payments only (a same-currency payment takes none).
 */
export function configuredPlatformFee(configs: readonly ConfiguredFee[], source: string, destination: string): PlatformFee {
  if (source === destination) return NO_PLATFORM_FEE;
  const fee = configs.find((c) => c.feeType === 'CROSS_CURRENCY_TRANSACTION' && c.sourceCurrency === source && c.fixedFee.currency === source);
  return fee ? { fixed: amountFromWire(fee.fixedFee.amount), variableBps: basisPointsFromWire(fee.variableFeeBps) } : NO_PLATFORM_FEE;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return a <= 0n ? a / b : (a + b - 1n) / b;
}

/**
 * Each fee is fixed + variable (bps of the sending amount); variable fees, the service's and the
 * platform's each, round UP to the sending currency's smallest unit: the fee side never loses
 * a fraction, and the sender never pays a fraction.
 */
export function feesFor(corridor: Corridor, sending: bigint, platform: PlatformFee = NO_PLATFORM_FEE): { serviceFee: bigint; platformFee: bigint } {
  return {
    serviceFee: corridor.fixedFee + ceilDiv(sending * corridor.variableFeeBps, BPS),
    platformFee: platform.fixed + ceilDiv(sending * platform.variableBps, BPS),
  };
}

/**
 * What `sending` (fees included) delivers: the amount after fees converted at the corridor's
 * rate, rounded down to the destination's smallest unit (never more than was paid for).
 * Zero when the fees take it all.
 */
export function receivingFor(corridor: Corridor, sending: bigint, sourceDecimals: number, destinationDecimals: number, platform: PlatformFee = NO_PLATFORM_FEE): bigint {
  const { serviceFee, platformFee } = feesFor(corridor, sending, platform);
  const net = sending - serviceFee - platformFee;
  if (net <= 0n) return 0n;
  return (net * corridor.rateMicros * decimalScale(destinationDecimals)) / (RATE_SCALE * decimalScale(sourceDecimals));
}

/** Prices a sending amount: the receiver gets the converted amount after fees, rounded down. */
export function priceSending(corridor: Corridor, sending: bigint, sourceDecimals: number, destinationDecimals: number, platform: PlatformFee = NO_PLATFORM_FEE): Price {
  return { sending, receiving: receivingFor(corridor, sending, sourceDecimals, destinationDecimals, platform), ...feesFor(corridor, sending, platform) };
}

/**
 * Prices a receiving amount: the smallest sending amount (fees included) whose converted
 * amount after fees reaches `receiving`; the receiver gets exactly `receiving`.
 */
export function priceReceiving(corridor: Corridor, receiving: bigint, sourceDecimals: number, destinationDecimals: number, platform: PlatformFee = NO_PLATFORM_FEE): Price {
  const bps = corridor.variableFeeBps + platform.variableBps;
  if (bps >= BPS) throw new RangeError('variable fees of 100% or more cannot price a receiving amount');
  const net = ceilDiv(receiving * RATE_SCALE * decimalScale(sourceDecimals), corridor.rateMicros * decimalScale(destinationDecimals));
  // A first estimate from the fee formula, then the exact smallest amount around it.
  let sending = ceilDiv((net + corridor.fixedFee + platform.fixed) * BPS, BPS - bps);
  while (receivingFor(corridor, sending, sourceDecimals, destinationDecimals, platform) < receiving) sending += 1n;
  while (sending > 1n && receivingFor(corridor, sending - 1n, sourceDecimals, destinationDecimals, platform) >= receiving) sending -= 1n;
  return { sending, receiving, ...feesFor(corridor, sending, platform) };
}

/** A conversion rate as a fraction: `numerator / denominator` major units of the target per major unit of the source. */
export interface ConversionRate {
  numerator: bigint;
  denominator: bigint;
}

/**
 * `amount` (smallest unit of the source currency) in the target currency, rounded UP to its
 * smallest unit: what is checked against a limit is never understated. No fees.
 */
export function convertRoundingUp(amount: bigint, rate: ConversionRate, sourceDecimals: number, targetDecimals: number): bigint {
  return ceilDiv(amount * rate.numerator * decimalScale(targetDecimals), rate.denominator * decimalScale(sourceDecimals));
}

/** The API's `exchangeRate`: sending currency units per receiving currency unit. */
export function sendingUnitsPerReceivingUnit(corridor: Corridor): number {
  return Number((Number(RATE_SCALE) / Number(corridor.rateMicros)).toPrecision(8));
}

/** Parses a decimal rate ("17.25") into micros; undefined for anything else than a positive decimal with at most 6 places. */
export function parseRate(value: string): bigint | undefined {
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(value);
  if (!match) return undefined;
  // At most 12 and 6 digits: exact as numbers.
  const micros = amountFromWire(Number(match[1])) * RATE_SCALE + amountFromWire(Number((match[2] ?? '').padEnd(6, '0')));
  return micros > 0n ? micros : undefined;
}
