import { canonicalJson, canonicalRequestDigest } from './wallet-auth';

describe('wallet-auth contract', () => {
  describe(canonicalJson.name, () => {
    it.each<[string, unknown, string]>([
      ['sorts keys at every level', { b: 1, a: { d: [2, { z: 1, y: 2 }], c: 'x' } }, '{"a":{"c":"x","d":[2,{"y":2,"z":1}]},"b":1}'],
      ['drops undefined members, keeps null', { a: undefined, b: null }, '{"b":null}'],
      ['writes a missing body as null', undefined, 'null'],
      ['escapes strings as JSON does', { 'k"': 'line\nbreak' }, '{"k\\"":"line\\nbreak"}'],
    ])('%s', (_label, value, expected) => {
      expect(canonicalJson(value)).toBe(expected);
    });
  });

  describe(canonicalRequestDigest.name, () => {
    const body = { type: 'SMS_OTP', accountId: 'InternalAccount:1', phoneNumber: '+14155550123' };

    it('is the same for the same request whatever the key order or method case', () => {
      const reordered = { phoneNumber: '+14155550123', type: 'SMS_OTP', accountId: 'InternalAccount:1' };
      expect(canonicalRequestDigest('post', '/auth/credentials', body)).toBe(canonicalRequestDigest('POST', '/auth/credentials', reordered));
    });

    it.each<[string, string, string, unknown]>([
      ['another method', 'PATCH', '/auth/credentials', body],
      ['another path', 'POST', '/auth/credentials/x', body],
      ['another body value', 'POST', '/auth/credentials', { ...body, phoneNumber: '+14155550124' }],
      ['an extra body member', 'POST', '/auth/credentials', { ...body, nickname: 'x' }],
    ])('differs for %s', (_label, method, path, other) => {
      expect(canonicalRequestDigest(method, path, other)).not.toBe(canonicalRequestDigest('POST', '/auth/credentials', body));
    });

    it('is lowercase hex SHA-256', () => {
      expect(canonicalRequestDigest('DELETE', '/auth/sessions/Session:1', undefined)).toMatch(/^[0-9a-f]{64}$/);
    });
  });
});
