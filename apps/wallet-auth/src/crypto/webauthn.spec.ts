import { SoftwareAuthenticator } from '../../../../libs/testing/src/software-authenticator';
import {
  WEBAUTHN_FAILURE_REASONS,
  WebAuthnError,
  clientDataChallengeFor,
  verifyPasskeyAssertion,
  verifyPasskeyRegistration,
  type PasskeyAssertion,
  type StoredPasskeyCredential,
  type WebAuthnFailureReason,
  type WebAuthnRelyingParty,
} from './webauthn';

const RP_ID = 'wallet.example.com';
const ORIGIN = 'https://wallet.example.com';
const relyingParty: WebAuthnRelyingParty = { rpId: RP_ID, allowedOrigins: [ORIGIN, 'https://app.example.com'] };
const REGISTRATION_CHALLENGE = 'registration-challenge-0192f1e4';
const ASSERTION_CHALLENGE = 'AuthChallenge:0192f1e4-7b1c-7000-8000-5f3a2b1c0d9e';

async function expectWebAuthnFailure(promise: Promise<unknown>, reason: WebAuthnFailureReason): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(WebAuthnError);
  await expect(promise).rejects.toMatchObject({ reason });
}

async function register(authenticator: SoftwareAuthenticator): Promise<StoredPasskeyCredential> {
  const registration = await verifyPasskeyRegistration({
    attestation: authenticator.createRegistration({ rpId: RP_ID, origin: ORIGIN, challenge: REGISTRATION_CHALLENGE }),
    expectedChallenge: REGISTRATION_CHALLENGE,
    relyingParty,
  });
  return { credentialId: registration.credentialId, publicKey: registration.publicKey, counter: registration.counter };
}

function assertionFrom(authenticator: SoftwareAuthenticator, overrides: Partial<Parameters<SoftwareAuthenticator['createAssertion']>[0]> = {}): PasskeyAssertion {
  return authenticator.createAssertion({ rpId: RP_ID, origin: ORIGIN, challenge: ASSERTION_CHALLENGE, ...overrides });
}

describe('webauthn', () => {
  describe(verifyPasskeyRegistration.name, () => {
    it.each(['packed', 'none'] as const)('accepts a genuine %s attestation and returns what to store', async (attestation) => {
      const authenticator = new SoftwareAuthenticator({ attestation });
      const registration = await verifyPasskeyRegistration({
        attestation: authenticator.createRegistration({ rpId: RP_ID, origin: ORIGIN, challenge: REGISTRATION_CHALLENGE }),
        expectedChallenge: REGISTRATION_CHALLENGE,
        relyingParty,
      });
      expect(registration).toMatchObject({
        credentialId: authenticator.credentialId,
        counter: 0,
        attestationFormat: attestation,
        userVerified: true,
        origin: ORIGIN,
        transports: ['internal'],
      });
      expect(Buffer.from(registration.publicKey)).toEqual(Buffer.from(authenticator.cosePublicKey));
    });

    it('rejects a registration for another challenge', async () => {
      const authenticator = new SoftwareAuthenticator();
      await expectWebAuthnFailure(
        verifyPasskeyRegistration({
          attestation: authenticator.createRegistration({ rpId: RP_ID, origin: ORIGIN, challenge: 'stale-challenge' }),
          expectedChallenge: REGISTRATION_CHALLENGE,
          relyingParty,
        }),
        WEBAUTHN_FAILURE_REASONS.challengeMismatch,
      );
    });

    it.each<[string, Parameters<SoftwareAuthenticator['createRegistration']>[0], WebAuthnFailureReason]>([
      ['an origin that is not allowed', { rpId: RP_ID, origin: 'https://evil.example.net', challenge: REGISTRATION_CHALLENGE }, WEBAUTHN_FAILURE_REASONS.originNotAllowed],
      ['another RP ID', { rpId: 'evil.example.net', origin: ORIGIN, challenge: REGISTRATION_CHALLENGE }, WEBAUTHN_FAILURE_REASONS.rpIdMismatch],
      ['no user presence', { rpId: RP_ID, origin: ORIGIN, challenge: REGISTRATION_CHALLENGE, userPresent: false }, WEBAUTHN_FAILURE_REASONS.userNotPresent],
      [
        'an assertion-type client data',
        { rpId: RP_ID, origin: ORIGIN, challenge: REGISTRATION_CHALLENGE, clientDataType: 'webauthn.get' },
        WEBAUTHN_FAILURE_REASONS.clientDataTypeMismatch,
      ],
    ])('rejects a registration with %s', async (_label, ceremony, reason) => {
      const authenticator = new SoftwareAuthenticator();
      await expectWebAuthnFailure(
        verifyPasskeyRegistration({ attestation: authenticator.createRegistration(ceremony), expectedChallenge: REGISTRATION_CHALLENGE, relyingParty }),
        reason,
      );
    });

    it('rejects a packed attestation whose signature was made by another key', async () => {
      const authenticator = new SoftwareAuthenticator({ attestation: 'packed' });
      const genuine = authenticator.createRegistration({ rpId: RP_ID, origin: ORIGIN, challenge: REGISTRATION_CHALLENGE });
      const forgedClientData = JSON.parse(Buffer.from(genuine.response.clientDataJSON, 'base64url').toString('utf8')) as Record<string, unknown>;
      const tampered = {
        ...genuine,
        response: {
          ...genuine.response,
          // Same challenge and origin, different bytes: the self-attestation signature no longer covers them.
          clientDataJSON: Buffer.from(JSON.stringify({ ...forgedClientData, crossOrigin: true }), 'utf8').toString('base64url'),
        },
      };
      await expectWebAuthnFailure(
        verifyPasskeyRegistration({ attestation: tampered, expectedChallenge: REGISTRATION_CHALLENGE, relyingParty }),
        WEBAUTHN_FAILURE_REASONS.attestationInvalid,
      );
    });

    it('demands the UV flag only when configured to', async () => {
      const authenticator = new SoftwareAuthenticator({ userVerification: false });
      const attestation = authenticator.createRegistration({ rpId: RP_ID, origin: ORIGIN, challenge: REGISTRATION_CHALLENGE });
      await expect(verifyPasskeyRegistration({ attestation, expectedChallenge: REGISTRATION_CHALLENGE, relyingParty })).resolves.toMatchObject({
        userVerified: false,
      });
      await expectWebAuthnFailure(
        verifyPasskeyRegistration({ attestation, expectedChallenge: REGISTRATION_CHALLENGE, relyingParty: { ...relyingParty, requireUserVerification: true } }),
        WEBAUTHN_FAILURE_REASONS.userNotVerified,
      );
    });

    it('rejects malformed attestations', async () => {
      const authenticator = new SoftwareAuthenticator();
      const genuine = authenticator.createRegistration({ rpId: RP_ID, origin: ORIGIN, challenge: REGISTRATION_CHALLENGE });
      await expectWebAuthnFailure(
        verifyPasskeyRegistration({
          attestation: { ...genuine, response: { ...genuine.response, attestationObject: 'not cbor!' } },
          expectedChallenge: REGISTRATION_CHALLENGE,
          relyingParty,
        }),
        WEBAUTHN_FAILURE_REASONS.malformed,
      );
      await expectWebAuthnFailure(
        verifyPasskeyRegistration({
          attestation: { ...genuine, response: { ...genuine.response, attestationObject: Buffer.from([0xa0]).toString('base64url') } },
          expectedChallenge: REGISTRATION_CHALLENGE,
          relyingParty,
        }),
        WEBAUTHN_FAILURE_REASONS.malformed,
      );
    });
  });

  describe(verifyPasskeyAssertion.name, () => {
    it('completes a registration + authentication round trip and advances the counter', async () => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);

      const first = await verifyPasskeyAssertion({ assertion: assertionFrom(authenticator), expectedChallenge: ASSERTION_CHALLENGE, relyingParty, credential });
      expect(first).toMatchObject({ credentialId: authenticator.credentialId, newCounter: 1, userVerified: true, origin: ORIGIN });

      const second = await verifyPasskeyAssertion({
        assertion: assertionFrom(authenticator, { challenge: 'next-challenge', origin: 'https://app.example.com' }),
        expectedChallenge: 'next-challenge',
        relyingParty,
        credential: { ...credential, counter: first.newCounter },
      });
      expect(second.newCounter).toBe(2);
    });

    it('accepts a UTF-8 challenge outside ASCII', async () => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);
      const challenge = 'défi-✓-0192f1e4';
      expect(clientDataChallengeFor(challenge)).toBe(Buffer.from(challenge, 'utf8').toString('base64url'));
      await expect(
        verifyPasskeyAssertion({ assertion: assertionFrom(authenticator, { challenge }), expectedChallenge: challenge, relyingParty, credential }),
      ).resolves.toMatchObject({ newCounter: 1 });
    });

    it('accepts counters that stay at zero on both sides', async () => {
      const authenticator = new SoftwareAuthenticator({ signCountStep: 0 });
      const credential = await register(authenticator);
      await expect(verifyPasskeyAssertion({ assertion: assertionFrom(authenticator), expectedChallenge: ASSERTION_CHALLENGE, relyingParty, credential })).resolves.toMatchObject({
        newCounter: 0,
      });
    });

    it('rejects an assertion for another challenge', async () => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);
      await expectWebAuthnFailure(
        verifyPasskeyAssertion({ assertion: assertionFrom(authenticator, { challenge: 'old-challenge' }), expectedChallenge: ASSERTION_CHALLENGE, relyingParty, credential }),
        WEBAUTHN_FAILURE_REASONS.challengeMismatch,
      );
    });

    it('rejects an assertion from another origin', async () => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);
      await expectWebAuthnFailure(
        verifyPasskeyAssertion({
          assertion: assertionFrom(authenticator, { origin: 'https://wallet.example.com.evil.net' }),
          expectedChallenge: ASSERTION_CHALLENGE,
          relyingParty,
          credential,
        }),
        WEBAUTHN_FAILURE_REASONS.originNotAllowed,
      );
    });

    it('rejects an assertion scoped to another RP ID', async () => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);
      await expectWebAuthnFailure(
        verifyPasskeyAssertion({ assertion: assertionFrom(authenticator, { rpId: 'example.com' }), expectedChallenge: ASSERTION_CHALLENGE, relyingParty, credential }),
        WEBAUTHN_FAILURE_REASONS.rpIdMismatch,
      );
    });

    it('rejects an assertion without the user-presence bit', async () => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);
      await expectWebAuthnFailure(
        verifyPasskeyAssertion({ assertion: assertionFrom(authenticator, { userPresent: false }), expectedChallenge: ASSERTION_CHALLENGE, relyingParty, credential }),
        WEBAUTHN_FAILURE_REASONS.userNotPresent,
      );
    });

    it.each([
      ['goes backwards', 7, 5],
      ['stays the same', 7, 7],
      ['drops to zero', 7, 0],
    ])('rejects a signature counter that %s', async (_label, storedCounter, assertedCounter) => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);
      await expectWebAuthnFailure(
        verifyPasskeyAssertion({
          assertion: assertionFrom(authenticator, { signCount: assertedCounter }),
          expectedChallenge: ASSERTION_CHALLENGE,
          relyingParty,
          credential: { ...credential, counter: storedCounter },
        }),
        WEBAUTHN_FAILURE_REASONS.counterNotIncreased,
      );
    });

    it('rejects a signature made by another authenticator', async () => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);
      const impostor = new SoftwareAuthenticator();
      const forged = { ...assertionFrom(impostor), credentialId: authenticator.credentialId };
      await expectWebAuthnFailure(
        verifyPasskeyAssertion({ assertion: forged, expectedChallenge: ASSERTION_CHALLENGE, relyingParty, credential }),
        WEBAUTHN_FAILURE_REASONS.signatureInvalid,
      );
    });

    it('rejects an assertion for a different credential id', async () => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);
      const other = new SoftwareAuthenticator();
      await expectWebAuthnFailure(
        verifyPasskeyAssertion({ assertion: assertionFrom(other), expectedChallenge: ASSERTION_CHALLENGE, relyingParty, credential }),
        WEBAUTHN_FAILURE_REASONS.credentialIdMismatch,
      );
    });

    it('rejects a registration-type client data in an assertion', async () => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);
      await expectWebAuthnFailure(
        verifyPasskeyAssertion({
          assertion: assertionFrom(authenticator, { clientDataType: 'webauthn.create' }),
          expectedChallenge: ASSERTION_CHALLENGE,
          relyingParty,
          credential,
        }),
        WEBAUTHN_FAILURE_REASONS.clientDataTypeMismatch,
      );
    });

    it.each<[string, (assertion: PasskeyAssertion) => PasskeyAssertion]>([
      ['a non-base64url signature', (assertion) => ({ ...assertion, signature: 'not base64url!' })],
      ['an empty clientDataJson', (assertion) => ({ ...assertion, clientDataJson: '' })],
      ['clientDataJson that is not JSON', (assertion) => ({ ...assertion, clientDataJson: Buffer.from('nope').toString('base64url') })],
      ['truncated authenticatorData', (assertion) => ({ ...assertion, authenticatorData: Buffer.alloc(10).toString('base64url') })],
      ['a numeric credentialId', (assertion) => ({ ...assertion, credentialId: 5 as unknown as string })],
    ])('rejects an assertion with %s as malformed', async (_label, mutate) => {
      const authenticator = new SoftwareAuthenticator();
      const credential = await register(authenticator);
      await expectWebAuthnFailure(
        verifyPasskeyAssertion({ assertion: mutate(assertionFrom(authenticator)), expectedChallenge: ASSERTION_CHALLENGE, relyingParty, credential }),
        WEBAUTHN_FAILURE_REASONS.malformed,
      );
    });
  });
});
