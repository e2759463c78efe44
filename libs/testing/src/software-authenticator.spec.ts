import { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import { decodeAttestationObject, isoCBOR, parseAuthenticatorData } from '@simplewebauthn/server/helpers';
import { SoftwareAuthenticator, encodeCbor, type CborValue } from './software-authenticator';

const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:3000';
const CHALLENGE = 'challenge-✓-1';
const EXPECTED_CLIENT_DATA_CHALLENGE = Buffer.from(CHALLENGE, 'utf8').toString('base64url');

describe(encodeCbor.name, () => {
  // Vectors from RFC 8949 Appendix A.
  it.each<[string, CborValue, string]>([
    ['0', 0, '00'],
    ['23', 23, '17'],
    ['24', 24, '1818'],
    ['100', 100, '1864'],
    ['1000', 1000, '1903e8'],
    ['1000000', 1_000_000, '1a000f4240'],
    ['1000000000000', 1_000_000_000_000, '1b000000e8d4a51000'],
    ['-1', -1, '20'],
    ['-10', -10, '29'],
    ['-100', -100, '3863'],
    ['-1000', -1000, '3903e7'],
    ['empty text', '', '60'],
    ['"a"', 'a', '6161'],
    ['"IETF"', 'IETF', '6449455446'],
    ['"ü"', 'ü', '62c3bc'],
    ['empty bytes', new Uint8Array(), '40'],
    ["h'01020304'", new Uint8Array([1, 2, 3, 4]), '4401020304'],
    ['empty map', new Map(), 'a0'],
    [
      '{1: 2, 3: 4}',
      new Map<CborValue, CborValue>([
        [1, 2],
        [3, 4],
      ]),
      'a201020304',
    ],
  ])('encodes %s', (_label, value, expectedHex) => {
    expect(Buffer.from(encodeCbor(value)).toString('hex')).toBe(expectedHex);
  });

  it('round-trips nested maps through an independent decoder', () => {
    const encoded = encodeCbor(
      new Map<CborValue, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(300).fill(9)],
      ]),
    );
    const decoded = isoCBOR.decodeFirst<Map<string, unknown>>(Uint8Array.from(encoded));
    expect(decoded.get('fmt')).toBe('none');
    expect((decoded.get('attStmt') as Map<unknown, unknown>).size).toBe(0);
    expect((decoded.get('authData') as Uint8Array).length).toBe(300);
  });

  it('refuses non-integers', () => {
    expect(() => encodeCbor(1.5)).toThrow(RangeError);
  });
});

describe(SoftwareAuthenticator.name, () => {
  describe('createRegistration', () => {
    it.each(['packed', 'none'] as const)('produces a %s attestation that @simplewebauthn/server verifies', async (attestation) => {
      const authenticator = new SoftwareAuthenticator({ attestation });
      const response = authenticator.createRegistration({ rpId: RP_ID, origin: ORIGIN, challenge: CHALLENGE });
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: EXPECTED_CLIENT_DATA_CHALLENGE,
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
      });
      expect(verification.verified).toBe(true);
      expect(verification.registrationInfo?.fmt).toBe(attestation);
      expect(verification.registrationInfo?.credential.id).toBe(authenticator.credentialId);
    });

    it('writes rpIdHash, UP/UV/AT flags, counter and attested credential data', () => {
      const authenticator = new SoftwareAuthenticator({ initialSignCount: 3 });
      const response = authenticator.createRegistration({ rpId: RP_ID, origin: ORIGIN, challenge: CHALLENGE });
      const authData = decodeAttestationObject(Buffer.from(response.response.attestationObject, 'base64url')).get('authData');
      const parsed = parseAuthenticatorData(authData);
      expect(Buffer.from(parsed.rpIdHash).toString('hex')).toBe('49960de5880e8c687434170f6476605b8fe4aeb9a28632c7995cf3ba831d9763');
      expect(parsed.flags).toMatchObject({ up: true, uv: true, at: true });
      expect(parsed.counter).toBe(3);
      expect(Buffer.from(parsed.credentialID ?? [])).toEqual(Buffer.from(authenticator.credentialIdBytes));
      expect(Buffer.from(parsed.credentialPublicKey ?? [])).toEqual(Buffer.from(authenticator.cosePublicKey));
      const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as Record<string, unknown>;
      expect(clientData).toEqual({ type: 'webauthn.create', challenge: EXPECTED_CLIENT_DATA_CHALLENGE, origin: ORIGIN, crossOrigin: false });
    });

    it('can leave out user presence and verification', () => {
      const authenticator = new SoftwareAuthenticator({ userVerification: false });
      const response = authenticator.createRegistration({ rpId: RP_ID, origin: ORIGIN, challenge: CHALLENGE, userPresent: false });
      const authData = decodeAttestationObject(Buffer.from(response.response.attestationObject, 'base64url')).get('authData');
      expect(parseAuthenticatorData(authData).flags).toMatchObject({ up: false, uv: false, at: true });
    });
  });

  describe('createAssertion', () => {
    it('produces assertions that @simplewebauthn/server verifies, with a rising counter', async () => {
      const authenticator = new SoftwareAuthenticator();
      let counter = 0;
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const assertion = authenticator.createAssertion({ rpId: RP_ID, origin: ORIGIN, challenge: CHALLENGE });
        const verification = await verifyAuthenticationResponse({
          response: {
            id: assertion.credentialId,
            rawId: assertion.credentialId,
            type: 'public-key',
            clientExtensionResults: {},
            response: {
              clientDataJSON: assertion.clientDataJson,
              authenticatorData: assertion.authenticatorData,
              signature: assertion.signature,
            },
          },
          expectedChallenge: EXPECTED_CLIENT_DATA_CHALLENGE,
          expectedOrigin: ORIGIN,
          expectedRPID: RP_ID,
          credential: { id: authenticator.credentialId, publicKey: Uint8Array.from(authenticator.cosePublicKey), counter },
        });
        expect(verification.verified).toBe(true);
        expect(verification.authenticationInfo.newCounter).toBe(counter + 1);
        counter = verification.authenticationInfo.newCounter;
      }
      expect(authenticator.signCount).toBe(3);
    });

    it('writes a forced counter and the flags it is asked for', () => {
      const authenticator = new SoftwareAuthenticator({ userHandle: new Uint8Array([1, 2, 3]) });
      const assertion = authenticator.createAssertion({ rpId: RP_ID, origin: ORIGIN, challenge: CHALLENGE, signCount: 42, userPresent: false });
      const parsed = parseAuthenticatorData(Buffer.from(assertion.authenticatorData, 'base64url'));
      expect(parsed.counter).toBe(42);
      expect(parsed.flags).toMatchObject({ up: false, uv: true, at: false });
      expect(assertion.userHandle).toBe('AQID');
    });
  });
});
