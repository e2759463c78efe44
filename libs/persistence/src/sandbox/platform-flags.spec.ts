import { PlatformFlags } from './platform-flags';

describe(PlatformFlags.name, () => {
  describe('isOn', () => {
    it('reads a platform once per staleness window, and concurrent readers share the read', async () => {
      const reads: string[] = [];
      const flags = new PlatformFlags(async (platformId) => {
        reads.push(platformId);
        return platformId === 'on';
      });
      expect(await Promise.all([flags.isOn('on'), flags.isOn('on'), flags.isOn('off')])).toEqual([true, true, false]);
      expect(await flags.isOn('on')).toBe(true);
      expect(reads.sort()).toEqual(['off', 'on']);
    });
  });

  describe('set', () => {
    it('is known at once, without a read', async () => {
      const flags = new PlatformFlags(async () => false);
      flags.set('p', true);
      expect(await flags.isOn('p')).toBe(true);
    });
  });
});
