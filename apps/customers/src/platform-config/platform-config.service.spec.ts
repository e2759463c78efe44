import { FeeConfig } from '@paykit/contracts';
import { mergeFeeConfigs } from './platform-config.service';

const fee = (sourceCurrency: string, amount: number, variableFeeBps: number): FeeConfig => ({
  feeType: 'CROSS_CURRENCY_TRANSACTION',
  sourceCurrency,
  variableFeeBps,
  fixedFee: { amount, currency: sourceCurrency },
});

describe('PlatformConfigService', () => {
  describe(mergeFeeConfigs.name, () => {
    it('upserts by (feeType, sourceCurrency) and keeps the fees not listed', () => {
      expect(mergeFeeConfigs([fee('USD', 50, 30), fee('EUR', 10, 0)], [fee('USD', 75, 0), fee('GBP', 0, 20)])).toEqual([fee('USD', 75, 0), fee('EUR', 10, 0), fee('GBP', 0, 20)]);
    });

    it('removes a fee set to 0 fixed and 0 bps, and ignores one that did not exist', () => {
      expect(mergeFeeConfigs([fee('USD', 50, 30), fee('EUR', 10, 0)], [fee('USD', 0, 0), fee('GBP', 0, 0)])).toEqual([fee('EUR', 10, 0)]);
    });

    it('changes nothing for an empty list', () => {
      expect(mergeFeeConfigs([fee('USD', 50, 30)], [])).toEqual([fee('USD', 50, 30)]);
    });
  });
});
