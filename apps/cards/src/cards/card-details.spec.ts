import { cardNumberAndCode, hashThreeDsPassword, luhnSum, newDetailsSeed, revealTokenHash, threeDsPasswordMatches } from './card-details';

describe('card details', () => {
  describe(cardNumberAndCode.name, () => {
    it.each(['0001', '0123', '4242', '9999'])('gives a 16-digit VISA-range number ending in %s that passes the Luhn check', (last4) => {
      const { pan, cvv } = cardNumberAndCode(newDetailsSeed(), 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69', last4);
      expect(pan).toMatch(/^4\d{15}$/);
      expect(pan.endsWith(last4)).toBe(true);
      expect(luhnSum(pan) % 10).toBe(0);
      expect(cvv).toMatch(/^\d{3}$/);
    });

    it('is the same for the same seed and card, and differs with the seed', () => {
      const seed = newDetailsSeed();
      const id = 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';
      expect(cardNumberAndCode(seed, id, '0123')).toEqual(cardNumberAndCode(seed, id, '0123'));
      expect(cardNumberAndCode(newDetailsSeed(), id, '0123').pan).not.toBe(cardNumberAndCode(seed, id, '0123').pan);
    });
  });

  describe(hashThreeDsPassword.name, () => {
    it('keeps a salted hash that verifies the password and nothing else, and never contains it', async () => {
      const stored = await hashThreeDsPassword('AbCd1234EfGh5678');
      expect(stored).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
      expect(stored).not.toContain('AbCd1234EfGh5678');
      expect(await hashThreeDsPassword('AbCd1234EfGh5678')).not.toBe(stored);
      await expect(threeDsPasswordMatches('AbCd1234EfGh5678', stored)).resolves.toBe(true);
      await expect(threeDsPasswordMatches('wrong', stored)).resolves.toBe(false);
    });
  });

  describe(revealTokenHash.name, () => {
    it('stores a reveal token only as its SHA-256', () => {
      expect(revealTokenHash('token')).toMatch(/^[0-9a-f]{64}$/);
      expect(revealTokenHash('token')).not.toContain('token');
    });
  });
});
