import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import {
  amountFromWire,
  amountToWire,
  CallerContext,
  decimalScale,
  ExchangeRate,
  ExchangeRateList,
  ExchangeRatesQuery,
  fitsOnWire,
  MAX_WIRE_AMOUNT,
  PaymentRail,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { ConfigError } from '@paykit/runtime';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config/payments-config';
import { CurrencyInfo } from '../currencies/currencies.repository';
import { CurrencyCatalog, toCurrency } from '../currencies/currency-catalog';
import { CustomersClient } from '../counterparties/customers.client';
import { configuredPlatformFee, ConversionRate, convertRoundingUp, Corridor, feesFor, RATE_SCALE, receivingFor, sendingUnitsPerReceivingUnit } from './pricing';
import { DEFAULT_RATE_TABLE, parseRateTable } from './rate-table';
import { Clock } from '@paykit/persistence';

/** Rates are republished every 5 minutes: each answer carries the start of its window as `updatedAt`. */
export const RATE_WINDOW_MS = 5 * 60 * 1000;
const DEFAULT_SENDING_AMOUNT = 10_000n;

const PAR = RATE_SCALE;

/**
 * An enabled stablecoin's corridors: to and from its base currency and USDC, at par, with the
 * sandbox's 10 bps fee, from one unit of the base currency up to a billion of them.
 */
export function stablecoinCorridors(coin: CurrencyInfo): Corridor[] {
  const base = coin.peggedTo!;
  const unit = decimalScale(Math.max(0, coin.decimals - 2));
  const coinSide = { fixedFee: 0n, variableFeeBps: 10n, minSendingAmount: 100n * unit, maxSendingAmount: 100_000_000_000n * unit };
  const baseSide = { fixedFee: 0n, variableFeeBps: 10n, minSendingAmount: 100n, maxSendingAmount: 100_000_000_000n };
  const payoutRail: PaymentRail = base === 'USD' ? 'ACH' : 'BANK_TRANSFER';
  return [
    { source: coin.code, destination: base, rail: payoutRail, rateMicros: PAR, ...coinSide },
    { source: coin.code, destination: 'USDC', rail: 'BANK_TRANSFER', rateMicros: PAR, ...coinSide },
    { source: base, destination: coin.code, rail: 'BANK_TRANSFER', rateMicros: PAR, ...baseSide },
    { source: 'USDC', destination: coin.code, rail: 'BANK_TRANSFER', rateMicros: PAR, ...coinSide },
  ];
}

/** A corridor with its currencies resolved, ready to price. */
export interface PricedCorridor {
  corridor: Corridor;
  source: CurrencyInfo;
  destination: CurrencyInfo;
}

/**
 * The rate table: the built-in sandbox table or the operator's, checked once at start (a bad
 * table stops the service naming every problem). Rates are fixed per table, so every answer
 * and every quote is deterministic.
 */
@Injectable()
export class ExchangeRatesService implements OnModuleInit {
  private tableCorridors: Corridor[] = [];

  constructor(
    private readonly currencies: CurrencyCatalog,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    private readonly clock: Clock,
    private readonly customers: CustomersClient,
  ) {}

  async onModuleInit(): Promise<void> {
    let spec: unknown = DEFAULT_RATE_TABLE;
    const source = this.config.rateTableJson?.source ?? 'the built-in rate table';
    if (this.config.rateTableJson) {
      try {
        spec = JSON.parse(this.config.rateTableJson.text);
      } catch (error) {
        throw new ConfigError([`${source} is not valid JSON: ${(error as Error).message}`]);
      }
    }
    const known = new Set<string>();
    for (const code of new Set(this.candidateCodes(spec))) if (await this.currencies.find(code)) known.add(code);
    const { corridors, problems } = parseRateTable(spec, (code) => known.has(code));
    if (problems.length > 0) throw new ConfigError(problems.map((problem) => `${source}: ${problem}`));
    this.tableCorridors = corridors;
  }

  private candidateCodes(spec: unknown): string[] {
    const list = (spec as { corridors?: unknown } | null)?.corridors;
    if (!Array.isArray(list)) return [];
    return list.flatMap((c: { source?: unknown; destination?: unknown }) => [c?.source, c?.destination]).filter((code): code is string => typeof code === 'string');
  }

  /** The table's corridors and those of the enabled stablecoins (one for one with their base currency). */
  private get corridors(): Corridor[] {
    const coins = this.currencies.loadedStablecoins();
    return coins.length === 0 ? this.tableCorridors : [...this.tableCorridors, ...coins.flatMap(stablecoinCorridors)];
  }

  /** The start of the rate window `now` falls in. */
  updatedAt(now: Date): Date {
    return new Date(Math.floor(now.getTime() / RATE_WINDOW_MS) * RATE_WINDOW_MS);
  }

  /** Every corridor's price with the service's fees and the platform's configured fee (its feeConfigs) included. */
  async list(ctx: CallerContext, query: ExchangeRatesQuery, now = this.clock.now()): Promise<ExchangeRateList> {
    const feeConfigs = await this.customers.feeConfigs(ctx);
    const destinations = query.destinationCurrency ? new Set(query.destinationCurrency) : undefined;
    const sending = query.sendingAmount === undefined ? DEFAULT_SENDING_AMOUNT : amountFromWire(query.sendingAmount);
    const updatedAt = this.updatedAt(now).toISOString();
    const data: ExchangeRate[] = [];
    for (const corridor of this.corridors) {
      if (query.sourceCurrency && corridor.source !== query.sourceCurrency) continue;
      if (destinations && !destinations.has(corridor.destination)) continue;
      const source = await this.currencies.get(corridor.source);
      const destination = await this.currencies.get(corridor.destination);
      const platform = configuredPlatformFee(feeConfigs, corridor.source, corridor.destination);
      const { serviceFee, platformFee } = feesFor(corridor, sending, platform);
      const receiving = receivingFor(corridor, sending, source.decimals, destination.decimals, platform);
      if (!fitsOnWire(receiving)) {
        throw ServiceError.invalidField('sendingAmount', `sendingAmount converts to more ${destination.code} than an amount can carry (${MAX_WIRE_AMOUNT} smallest units)`);
      }
      data.push({
        sourceCurrency: toCurrency(source),
        destinationCurrency: toCurrency(destination),
        destinationPaymentRail: corridor.rail,
        sendingAmount: amountToWire(sending),
        minSendingAmount: amountToWire(corridor.minSendingAmount),
        maxSendingAmount: amountToWire(corridor.maxSendingAmount),
        receivingAmount: amountToWire(receiving),
        exchangeRate: sendingUnitsPerReceivingUnit(corridor),
        fees: { fixed: amountToWire(corridor.fixedFee + platform.fixed), total: amountToWire(serviceFee + platformFee) },
        updatedAt,
      });
    }
    return { data };
  }

  /**
   * The corridor a payment from `source` to `destination` takes: on `rail` when given, else the
   * pair's first rail. 400 INVALID_CURRENCY when the table has no such corridor.
   */
  async corridor(source: string, destination: string, rail?: PaymentRail): Promise<PricedCorridor> {
    // A replica learns of a stablecoin enabled elsewhere on its first look at the code.
    await Promise.all([this.currencies.find(source), this.currencies.find(destination)]);
    const pair = this.corridors.filter((c) => c.source === source && c.destination === destination);
    if (pair.length === 0) {
      throw new ServiceError('INVALID_CURRENCY', `No exchange corridor from ${source} to ${destination}`, { sourceCurrency: source, destinationCurrency: destination });
    }
    const corridor = rail ? pair.find((c) => c.rail === rail) : pair[0];
    if (!corridor) {
      throw new ServiceError('INVALID_CURRENCY', `${source} to ${destination} does not pay out on ${rail}`, { paymentRails: pair.map((c) => c.rail) });
    }
    return { corridor, source: await this.currencies.get(source), destination: await this.currencies.get(destination) };
  }

  /**
   * `amount` of `source` in `target` at the table's rate (the pair's corridor, or the inverse of
   * the reverse one), rounded up, with no fees: for checking an amount against a limit kept in
   * another currency. Undefined when the table has no rate between them.
   */
  async convertRoundingUp(amount: bigint, source: string, target: string): Promise<bigint | undefined> {
    if (source === target) return amount;
    const direct = this.corridors.find((c) => c.source === source && c.destination === target);
    const reverse = direct ? undefined : this.corridors.find((c) => c.source === target && c.destination === source);
    let rate: ConversionRate;
    if (direct) rate = { numerator: direct.rateMicros, denominator: RATE_SCALE };
    else if (reverse) rate = { numerator: RATE_SCALE, denominator: reverse.rateMicros };
    else return undefined;
    const [from, to] = [await this.currencies.get(source), await this.currencies.get(target)];
    return convertRoundingUp(amount, rate, from.decimals, to.decimals);
  }

  /** The destination currencies `source` can be converted to (receiver lookups list them). */
  destinationsFrom(source: string): Corridor[] {
    return this.corridors.filter((c) => c.source === source);
  }

  /** Every corridor into `destination` (receiver lookups list what can be sent to it). */
  corridorsInto(destination: string): Corridor[] {
    return this.corridors.filter((c) => c.destination === destination);
  }
}
