import {
  configuredPlatformFee,
  convertRoundingUp,
  Corridor,
  feesFor,
  NO_PLATFORM_FEE,
  parseRate,
  priceReceiving,
  priceSending,
  RATE_SCALE,
  receivingFor,
  sendingUnitsPerReceivingUnit,
} from './pricing';
import { DEFAULT_RATE_TABLE, parseRateTable } from './rate-table';

const USD_MXN: Corridor = {
  source: 'USD',
  destination: 'MXN',
  rail: 'SPEI',
  rateMicros: 17_250_000n,
  fixedFee: 100n,
  variableFeeBps: 50n,
  minSendingAmount: 100n,
  maxSendingAmount: 10_000_000n,
};

describe('pricing', () => {
  describe(feesFor.name, () => {
    it('adds the fixed fee and the variable fee rounded up to the next smallest unit', () => {
      expect(feesFor(USD_MXN, 10_000n)).toEqual({ serviceFee: 150n, platformFee: 0n });
      // 50 bps of 101 is 0.505 cents: the sender pays 1.
      expect(feesFor(USD_MXN, 101n)).toEqual({ serviceFee: 101n, platformFee: 0n });
      expect(feesFor(USD_MXN, 10_000n, { fixed: 25n, variableBps: 10n })).toEqual({ serviceFee: 150n, platformFee: 35n });
    });
  });

  describe(configuredPlatformFee.name, () => {
    const usd = { feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 30, fixedFee: { amount: 50, currency: 'USD' } };

    it("takes the platform's cross-currency fee of the sending currency", () => {
      expect(configuredPlatformFee([usd], 'USD', 'MXN')).toEqual({ fixed: 50n, variableBps: 30n });
    });

    it.each([
      ['a same-currency payment', [usd], 'USD', 'USD'],
      ['another sending currency', [usd], 'EUR', 'MXN'],
      ['no fee configured', [], 'USD', 'MXN'],
    ])('is nothing for %s', (_what, configs, source, destination) => {
      expect(configuredPlatformFee(configs, source, destination)).toEqual(NO_PLATFORM_FEE);
    });

    it('rounds the variable part up to the next cent: 30 bps of 10001 cents (30.003) is 31', () => {
      expect(feesFor({ ...USD_MXN, fixedFee: 0n, variableFeeBps: 0n }, 10_001n, configuredPlatformFee([usd], 'USD', 'MXN'))).toEqual({ serviceFee: 0n, platformFee: 81n });
    });
  });

  describe(priceSending.name, () => {
    it.each([
      // [what, corridor, sending, source decimals, destination decimals, receiving]
      ['USD 100.00 to MXN at 17.25 after 1.50 of fees: 169912.5 centavos rounds down', USD_MXN, 10_000n, 2, 2, 169_912n],
      ['USD 1.00 to BTC (8 decimals) after 1 cent of fees', { ...USD_MXN, destination: 'BTC', rateMicros: 15n, fixedFee: 0n }, 100n, 2, 8, 1_485n],
      [
        'USDC 1.000000 (6 decimals) to USD at 1 after 10 bps: 99.9 cents rounds down',
        { ...USD_MXN, rateMicros: 1_000_000n, fixedFee: 0n, variableFeeBps: 10n },
        1_000_000n,
        6,
        2,
        99n,
      ],
      ['USD to a currency without decimals', { ...USD_MXN, rateMicros: 1_300_000_000n, fixedFee: 0n, variableFeeBps: 0n }, 1n, 2, 0, 13n],
      ['fees taking everything deliver nothing', USD_MXN, 100n, 2, 2, 0n],
    ])('%s', (_what, corridor, sending, sourceDecimals, destinationDecimals, receiving) => {
      expect(priceSending(corridor, sending, sourceDecimals, destinationDecimals).receiving).toBe(receiving);
    });
  });

  describe(priceReceiving.name, () => {
    it('finds the smallest sending amount that delivers the locked receiving amount', () => {
      const price = priceReceiving(USD_MXN, 100_000n, 2, 2);
      expect(price).toEqual({ sending: 5_928n, receiving: 100_000n, serviceFee: 130n, platformFee: 0n });
      expect(receivingFor(USD_MXN, price.sending, 2, 2)).toBeGreaterThanOrEqual(100_000n);
      expect(receivingFor(USD_MXN, price.sending - 1n, 2, 2)).toBeLessThan(100_000n);
    });

    it.each([1n, 7n, 99n, 12_345n, 999_999n, 17_250_000n])('is exact and minimal for %s, with a platform fee too', (receiving) => {
      for (const platform of [undefined, { fixed: 30n, variableBps: 25n }]) {
        const price = priceReceiving(USD_MXN, receiving, 2, 2, platform);
        expect(receivingFor(USD_MXN, price.sending, 2, 2, platform)).toBeGreaterThanOrEqual(receiving);
        expect(receivingFor(USD_MXN, price.sending - 1n, 2, 2, platform)).toBeLessThan(receiving);
      }
    });
  });

  describe(sendingUnitsPerReceivingUnit.name, () => {
    it('is the inverse of the corridor rate', () => {
      expect(sendingUnitsPerReceivingUnit(USD_MXN)).toBe(0.057971014);
    });
  });

  describe(parseRate.name, () => {
    it.each([
      ['17.25', 17_250_000n],
      ['1', 1_000_000n],
      ['0.000015', 15n],
      ['0', undefined],
      ['1.0000001', undefined],
      ['-1', undefined],
      ['abc', undefined],
    ])('%s', (value, micros) => {
      expect(parseRate(value)).toBe(micros);
    });
  });
});

describe(parseRateTable.name, () => {
  const known = (code: string) => ['USD', 'MXN', 'EUR', 'GBP', 'BRL', 'INR', 'PHP', 'COP', 'NGN', 'KES', 'ZAR', 'CAD', 'USDC', 'BTC'].includes(code);

  it('accepts the built-in sandbox table', () => {
    const { corridors, problems } = parseRateTable(DEFAULT_RATE_TABLE, known);
    expect(problems).toEqual([]);
    expect(corridors).toHaveLength(DEFAULT_RATE_TABLE.corridors.length);
  });

  it('lists every problem of an operator table at once', () => {
    const { problems } = parseRateTable(
      {
        corridors: [
          { source: 'USD', destination: 'QQQ', rail: 'SPEI', rate: '17', fixedFee: 0, variableFeeBps: 0, minSendingAmount: 1, maxSendingAmount: 2 },
          { source: 'USD', destination: 'MXN', rail: 'PIGEON', rate: 'x', fixedFee: -1, variableFeeBps: 10_000, minSendingAmount: 5, maxSendingAmount: 2 },
        ],
      },
      known,
    );
    expect(problems).toEqual([
      'corridors[0].destination must be a known currency code',
      expect.stringContaining('corridors[1].rail must be one of'),
      'corridors[1].rate must be a positive decimal string with at most 6 decimals',
      `corridors[1].fixedFee must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}`,
      'corridors[1].variableFeeBps must be an integer from 0 to 9999',
      'corridors[1].minSendingAmount must not exceed maxSendingAmount',
    ]);
    expect(parseRateTable({}, known).problems).toEqual(['the table needs a non-empty "corridors" array']);
  });

  describe(convertRoundingUp.name, () => {
    const EUR_USD = { numerator: 1_087_000n, denominator: RATE_SCALE };
    it('converts at the rate and rounds up to the smallest unit of the target, with no fees', () => {
      expect(convertRoundingUp(1_000n, EUR_USD, 2, 2)).toBe(1_087n);
      // 919 cents of EUR are 998.953 cents of USD: counted as 999.
      expect(convertRoundingUp(919n, EUR_USD, 2, 2)).toBe(999n);
      expect(convertRoundingUp(0n, EUR_USD, 2, 2)).toBe(0n);
    });

    it('takes an inverted rate (the reverse corridor) and other decimals', () => {
      // USD to MXN is 17.25; MXN to USD through it: 1,725 centavos are 100 cents, one more is 100.06, counted as 101.
      const MXN_USD = { numerator: RATE_SCALE, denominator: 17_250_000n };
      expect(convertRoundingUp(1_725n, MXN_USD, 2, 2)).toBe(100n);
      expect(convertRoundingUp(1_726n, MXN_USD, 2, 2)).toBe(101n);
      // 1 USD cent in BTC satoshis (8 decimals) at 0.000015 BTC per USD: 15 satoshis.
      expect(convertRoundingUp(1n, { numerator: 15n, denominator: RATE_SCALE }, 2, 8)).toBe(15n);
    });
  });
});
