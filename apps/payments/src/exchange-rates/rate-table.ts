import { amountFromWire, PAYMENT_RAILS, PaymentRail } from '@paykit/contracts';
import { Corridor, parseRate } from './pricing';

/** A corridor as an operator writes it (JSON): amounts in the source currency's smallest unit, the rate as a decimal string. */
export interface CorridorSpec {
  source: string;
  destination: string;
  rail: PaymentRail;
  /** Destination major units per source major unit, up to 6 decimals (e.g. "17.25"). */
  rate: string;
  fixedFee: number;
  variableFeeBps: number;
  minSendingAmount: number;
  maxSendingAmount: number;
}

export interface RateTableSpec {
  corridors: CorridorSpec[];
}

const usd = (destination: string, rail: PaymentRail, rate: string, fixedFee = 100, variableFeeBps = 50): CorridorSpec => ({
  source: 'USD',
  destination,
  rail,
  rate,
  fixedFee,
  variableFeeBps,
  minSendingAmount: 100,
  maxSendingAmount: 10_000_000,
});

/**
 * The sandbox's built-in table: fixed, so every quote and test is deterministic. An operator of
 * a self-hosted deployment replaces it (FX_RATE_TABLE or FX_RATE_TABLE_FILE); nothing is fetched
 * from the internet. Where a pair has several rails, the first is the default.
 */
export const DEFAULT_RATE_TABLE: RateTableSpec = {
  corridors: [
    usd('MXN', 'SPEI', '17.25'),
    usd('EUR', 'SEPA_INSTANT', '0.92', 50, 25),
    usd('EUR', 'SEPA', '0.92', 25, 25),
    usd('GBP', 'FASTER_PAYMENTS', '0.79', 50, 25),
    usd('BRL', 'PIX', '5.05'),
    usd('INR', 'UPI', '83.2'),
    usd('PHP', 'INSTAPAY', '56.1'),
    usd('COP', 'ACH_COLOMBIA', '3950'),
    usd('NGN', 'BANK_TRANSFER', '1480'),
    usd('KES', 'MOBILE_MONEY', '129.5'),
    usd('ZAR', 'BANK_TRANSFER', '18.4'),
    usd('CAD', 'BANK_TRANSFER', '1.36', 50, 25),
    usd('USDC', 'BANK_TRANSFER', '1', 0, 10),
    usd('BTC', 'BANK_TRANSFER', '0.000015', 0, 50),
    { source: 'EUR', destination: 'USD', rail: 'ACH', rate: '1.087', fixedFee: 50, variableFeeBps: 25, minSendingAmount: 100, maxSendingAmount: 10_000_000 },
    { source: 'EUR', destination: 'MXN', rail: 'SPEI', rate: '18.75', fixedFee: 100, variableFeeBps: 50, minSendingAmount: 100, maxSendingAmount: 10_000_000 },
    { source: 'GBP', destination: 'USD', rail: 'ACH', rate: '1.266', fixedFee: 50, variableFeeBps: 25, minSendingAmount: 100, maxSendingAmount: 10_000_000 },
    { source: 'GBP', destination: 'EUR', rail: 'SEPA_INSTANT', rate: '1.165', fixedFee: 50, variableFeeBps: 25, minSendingAmount: 100, maxSendingAmount: 10_000_000 },
    { source: 'MXN', destination: 'USD', rail: 'ACH', rate: '0.058', fixedFee: 1_000, variableFeeBps: 50, minSendingAmount: 2_000, maxSendingAmount: 200_000_000 },
    { source: 'USDC', destination: 'USD', rail: 'ACH', rate: '1', fixedFee: 0, variableFeeBps: 10, minSendingAmount: 1_000_000, maxSendingAmount: 100_000_000_000 },
    { source: 'USDC', destination: 'MXN', rail: 'SPEI', rate: '17.25', fixedFee: 1_000_000, variableFeeBps: 50, minSendingAmount: 1_000_000, maxSendingAmount: 100_000_000_000 },
    {
      source: 'USDC',
      destination: 'EUR',
      rail: 'SEPA_INSTANT',
      rate: '0.92',
      fixedFee: 500_000,
      variableFeeBps: 25,
      minSendingAmount: 1_000_000,
      maxSendingAmount: 100_000_000_000,
    },
  ],
};

/**
 * Checks and converts a table: every problem is listed (so an operator fixes them in one go),
 * currencies must be known, a pair's rail appears once, amounts are safe integers.
 */
export function parseRateTable(spec: unknown, knownCurrency: (code: string) => boolean): { corridors: Corridor[]; problems: string[] } {
  const problems: string[] = [];
  const corridors: Corridor[] = [];
  const list = (spec as Partial<RateTableSpec> | null)?.corridors;
  if (!Array.isArray(list) || list.length === 0) return { corridors, problems: ['the table needs a non-empty "corridors" array'] };
  const seen = new Set<string>();
  list.forEach((raw: Partial<CorridorSpec>, i) => {
    const at = `corridors[${i}]`;
    const before = problems.length;
    for (const side of ['source', 'destination'] as const) {
      if (typeof raw[side] !== 'string' || !knownCurrency(raw[side])) problems.push(`${at}.${side} must be a known currency code`);
    }
    if (raw.source === raw.destination) problems.push(`${at} must convert between two different currencies`);
    if (typeof raw.rail !== 'string' || !(PAYMENT_RAILS as readonly string[]).includes(raw.rail)) problems.push(`${at}.rail must be one of ${PAYMENT_RAILS.join(', ')}`);
    const rate = typeof raw.rate === 'string' ? parseRate(raw.rate) : undefined;
    if (rate === undefined) problems.push(`${at}.rate must be a positive decimal string with at most 6 decimals`);
    const amount = (name: 'fixedFee' | 'variableFeeBps' | 'minSendingAmount' | 'maxSendingAmount', max = Number.MAX_SAFE_INTEGER) => {
      const value = raw[name];
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > max) problems.push(`${at}.${name} must be an integer from 0 to ${max}`);
      return amountFromWire(typeof value === 'number' && Number.isSafeInteger(value) ? value : 0);
    };
    const fixedFee = amount('fixedFee');
    const variableFeeBps = amount('variableFeeBps', 9_999);
    const minSendingAmount = amount('minSendingAmount');
    const maxSendingAmount = amount('maxSendingAmount');
    if (minSendingAmount > maxSendingAmount) problems.push(`${at}.minSendingAmount must not exceed maxSendingAmount`);
    const key = `${raw.source}>${raw.destination}>${raw.rail}`;
    if (seen.has(key)) problems.push(`${at} repeats ${raw.source} to ${raw.destination} on ${raw.rail}`);
    seen.add(key);
    if (problems.length === before) {
      corridors.push({ source: raw.source!, destination: raw.destination!, rail: raw.rail!, rateMicros: rate!, fixedFee, variableFeeBps, minSendingAmount, maxSendingAmount });
    }
  });
  return { corridors, problems };
}
