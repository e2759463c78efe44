import { createHash, timingSafeEqual } from 'node:crypto';
import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type CredentialDeviceType,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeAttestationObject, decodeClientDataJSON, parseAuthenticatorData } from '@simplewebauthn/server/helpers';

/** The `reason` strings returned with 401 UNAUTHORIZED, one per check. */
export const WEBAUTHN_FAILURE_REASONS = Object.freeze({
  malformed: 'passkey response is malformed',
  credentialIdMismatch: 'passkey credential id does not match the credential',
  clientDataTypeMismatch: 'passkey clientDataJSON type is wrong for this ceremony',
  challengeMismatch: 'passkey challenge does not match',
  originNotAllowed: 'passkey origin is not allowed',
  rpIdMismatch: 'passkey RP ID does not match',
  userNotPresent: 'passkey user presence flag is not set',
  userNotVerified: 'passkey user verification flag is not set',
  counterNotIncreased: 'passkey signature counter did not increase',
  signatureInvalid: 'passkey signature is invalid',
  attestationInvalid: 'passkey attestation is invalid',
} as const);

export type WebAuthnFailureReason = (typeof WEBAUTHN_FAILURE_REASONS)[keyof typeof WEBAUTHN_FAILURE_REASONS];

export class WebAuthnError extends Error {
  constructor(
    readonly reason: WebAuthnFailureReason,
    readonly detail?: string,
  ) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = 'WebAuthnError';
  }
}

export interface WebAuthnRelyingParty {
  rpId: string;
  allowedOrigins: readonly string[];
  /** The spec requires user presence only; set to also demand the UV flag. Default false. */
  requireUserVerification?: boolean;
}

/** Assertion as the service receives it; all fields base64url. */
export interface PasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

export interface StoredPasskeyCredential {
  /** base64url credential id. */
  credentialId: string;
  /** COSE_Key bytes from registration. */
  publicKey: Uint8Array;
  counter: number;
  transports?: AuthenticatorTransportFuture[];
}

export interface VerifiedPasskeyRegistration {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  attestationFormat: string;
  aaguid: string;
  userVerified: boolean;
  deviceType: CredentialDeviceType;
  backedUp: boolean;
  origin: string;
  transports: AuthenticatorTransportFuture[];
}

export interface VerifiedPasskeyAssertion {
  credentialId: string;
  /** Store this as the credential's counter. */
  newCounter: number;
  userVerified: boolean;
  deviceType: CredentialDeviceType;
  backedUp: boolean;
  origin: string;
}

const BASE64URL_PATTERN = /^[A-Za-z0-9_-]*={0,2}$/;
const MAX_FIELD_LENGTH = 65_536;

/** What the browser writes as clientDataJSON.challenge for a UTF-8 challenge string. */
export function clientDataChallengeFor(challenge: string): string {
  return Buffer.from(challenge, 'utf8').toString('base64url');
}

function isBase64UrlField(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD_LENGTH && BASE64URL_PATTERN.test(value);
}

/**
 * How a ceremony's challenge reaches clientDataJSON. An assertion's challenge is text the client
 * UTF-8 encodes; a registration's challenge is the platform's own base64url value of the bytes it
 * gave the browser, so the client data carries it as is (the UTF-8 form is accepted too).
 */
export type ChallengeForm = 'utf8' | 'utf8-or-base64url';

function challengeMatches(clientDataChallenge: string, expected: string, form: ChallengeForm): boolean {
  const sent = withoutPadding(clientDataChallenge);
  if (sameText(sent, clientDataChallengeFor(expected))) return true;
  return form === 'utf8-or-base64url' && sameText(sent, withoutPadding(expected));
}

function withoutPadding(value: string): string {
  return value.replace(/=+$/, '');
}

function sameText(first: string, second: string): boolean {
  const firstBytes = Buffer.from(first, 'utf8');
  const secondBytes = Buffer.from(second, 'utf8');
  return firstBytes.length === secondBytes.length && timingSafeEqual(firstBytes, secondBytes);
}

function fail(reason: WebAuthnFailureReason, detail?: string): never {
  throw new WebAuthnError(reason, detail);
}

interface ClientDataFields {
  type: string;
  challenge: string;
  origin: string;
}

function readClientData(clientDataJson: string): ClientDataFields {
  let clientData: unknown;
  try {
    clientData = decodeClientDataJSON(clientDataJson);
  } catch {
    return fail(WEBAUTHN_FAILURE_REASONS.malformed, 'clientDataJSON is not base64url JSON');
  }
  if (typeof clientData !== 'object' || clientData === null) return fail(WEBAUTHN_FAILURE_REASONS.malformed, 'clientDataJSON is not an object');
  const { type, challenge, origin } = clientData as Record<string, unknown>;
  if (typeof type !== 'string' || typeof challenge !== 'string' || typeof origin !== 'string') {
    return fail(WEBAUTHN_FAILURE_REASONS.malformed, 'clientDataJSON lacks type, challenge or origin');
  }
  return { type, challenge, origin };
}

/** Checks the client data against the ceremony before the library runs, so each failure names its check. */
function checkClientData(clientData: ClientDataFields, expectedType: string, expectedChallenge: string, relyingParty: WebAuthnRelyingParty, form: ChallengeForm): void {
  if (clientData.type !== expectedType) fail(WEBAUTHN_FAILURE_REASONS.clientDataTypeMismatch);
  if (!challengeMatches(clientData.challenge, expectedChallenge, form)) fail(WEBAUTHN_FAILURE_REASONS.challengeMismatch);
  if (!relyingParty.allowedOrigins.includes(clientData.origin)) fail(WEBAUTHN_FAILURE_REASONS.originNotAllowed);
}

interface AuthenticatorDataFields {
  rpIdHash: Uint8Array;
  userPresent: boolean;
  userVerified: boolean;
  counter: number;
}

function readAuthenticatorData(authenticatorData: Uint8Array): AuthenticatorDataFields {
  try {
    const parsed = parseAuthenticatorData(Uint8Array.from(authenticatorData));
    return { rpIdHash: parsed.rpIdHash, userPresent: parsed.flags.up, userVerified: parsed.flags.uv, counter: parsed.counter };
  } catch {
    return fail(WEBAUTHN_FAILURE_REASONS.malformed, 'authenticatorData cannot be parsed');
  }
}

function checkAuthenticatorData(fields: AuthenticatorDataFields, relyingParty: WebAuthnRelyingParty): void {
  const expectedRpIdHash = createHash('sha256').update(relyingParty.rpId, 'utf8').digest();
  if (fields.rpIdHash.length !== expectedRpIdHash.length || !timingSafeEqual(fields.rpIdHash, expectedRpIdHash)) {
    fail(WEBAUTHN_FAILURE_REASONS.rpIdMismatch);
  }
  if (!fields.userPresent) fail(WEBAUTHN_FAILURE_REASONS.userNotPresent);
  if (relyingParty.requireUserVerification && !fields.userVerified) fail(WEBAUTHN_FAILURE_REASONS.userNotVerified);
}

function libraryOptions(expectedChallenge: string, relyingParty: WebAuthnRelyingParty, form: ChallengeForm) {
  return {
    // Padding was already tolerated above; the library compares the unpadded form.
    expectedChallenge: (challenge: string) => challengeMatches(challenge, expectedChallenge, form),
    expectedOrigin: [...relyingParty.allowedOrigins],
    expectedRPID: relyingParty.rpId,
    requireUserVerification: relyingParty.requireUserVerification ?? false,
  };
}

/**
 * Verifies a passkey registration (the browser's RegistrationResponseJSON) for the challenge the
 * service issued. Returns what must be stored: credential id, COSE public key and counter.
 */
export async function verifyPasskeyRegistration(input: {
  attestation: RegistrationResponseJSON;
  expectedChallenge: string;
  relyingParty: WebAuthnRelyingParty;
}): Promise<VerifiedPasskeyRegistration> {
  const { attestation, expectedChallenge, relyingParty } = input;
  if (typeof attestation !== 'object' || attestation === null || typeof attestation.response !== 'object' || attestation.response === null) {
    fail(WEBAUTHN_FAILURE_REASONS.malformed, 'attestation is not an object');
  }
  const { clientDataJSON, attestationObject } = attestation.response;
  if (!isBase64UrlField(attestation.id) || !isBase64UrlField(clientDataJSON) || !isBase64UrlField(attestationObject)) {
    fail(WEBAUTHN_FAILURE_REASONS.malformed, 'attestation fields must be base64url strings');
  }
  checkClientData(readClientData(clientDataJSON), 'webauthn.create', expectedChallenge, relyingParty, 'utf8-or-base64url');
  let authenticatorData: Uint8Array;
  try {
    authenticatorData = decodeAttestationObject(Buffer.from(attestationObject, 'base64url')).get('authData');
  } catch {
    return fail(WEBAUTHN_FAILURE_REASONS.malformed, 'attestationObject is not CBOR');
  }
  if (!(authenticatorData instanceof Uint8Array)) fail(WEBAUTHN_FAILURE_REASONS.malformed, 'attestationObject lacks authData');
  checkAuthenticatorData(readAuthenticatorData(authenticatorData), relyingParty);

  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({ response: attestation, ...libraryOptions(expectedChallenge, relyingParty, 'utf8-or-base64url') });
  } catch (error) {
    return fail(WEBAUTHN_FAILURE_REASONS.attestationInvalid, error instanceof Error ? error.message : undefined);
  }
  if (!verification.verified) return fail(WEBAUTHN_FAILURE_REASONS.attestationInvalid);
  const { registrationInfo } = verification;
  return {
    credentialId: registrationInfo.credential.id,
    publicKey: registrationInfo.credential.publicKey,
    counter: registrationInfo.credential.counter,
    attestationFormat: registrationInfo.fmt,
    aaguid: registrationInfo.aaguid,
    userVerified: registrationInfo.userVerified,
    deviceType: registrationInfo.credentialDeviceType,
    backedUp: registrationInfo.credentialBackedUp,
    origin: registrationInfo.origin,
    transports: Array.isArray(attestation.response.transports) ? attestation.response.transports : [],
  };
}

/**
 * Verifies a passkey assertion against the stored credential. A counter that does not increase is
 * refused whenever either side is non-zero (zero on both means the authenticator does not count).
 */
export async function verifyPasskeyAssertion(input: {
  assertion: PasskeyAssertion;
  expectedChallenge: string;
  relyingParty: WebAuthnRelyingParty;
  credential: StoredPasskeyCredential;
}): Promise<VerifiedPasskeyAssertion> {
  const { assertion, expectedChallenge, relyingParty, credential } = input;
  if (typeof assertion !== 'object' || assertion === null) fail(WEBAUTHN_FAILURE_REASONS.malformed, 'assertion is not an object');
  const { credentialId, clientDataJson, authenticatorData, signature, userHandle } = assertion;
  if (![credentialId, clientDataJson, authenticatorData, signature].every(isBase64UrlField)) {
    fail(WEBAUTHN_FAILURE_REASONS.malformed, 'assertion fields must be base64url strings');
  }
  if (userHandle !== undefined && userHandle !== null && !isBase64UrlField(userHandle)) {
    fail(WEBAUTHN_FAILURE_REASONS.malformed, 'userHandle must be a base64url string');
  }
  if (withoutPadding(credentialId) !== withoutPadding(credential.credentialId)) fail(WEBAUTHN_FAILURE_REASONS.credentialIdMismatch);
  checkClientData(readClientData(clientDataJson), 'webauthn.get', expectedChallenge, relyingParty, 'utf8');
  const authenticatorFields = readAuthenticatorData(Buffer.from(authenticatorData, 'base64url'));
  checkAuthenticatorData(authenticatorFields, relyingParty);
  // A counter that stays or goes back signals a cloned authenticator or a replayed assertion.
  if ((authenticatorFields.counter > 0 || credential.counter > 0) && authenticatorFields.counter <= credential.counter) {
    fail(WEBAUTHN_FAILURE_REASONS.counterNotIncreased);
  }

  const response: AuthenticationResponseJSON = {
    id: withoutPadding(credential.credentialId),
    rawId: withoutPadding(credential.credentialId),
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: clientDataJson,
      authenticatorData,
      signature,
      ...(typeof userHandle === 'string' ? { userHandle } : {}),
    },
  };
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      ...libraryOptions(expectedChallenge, relyingParty, 'utf8'),
      credential: {
        id: credential.credentialId,
        publicKey: Uint8Array.from(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports,
      },
    });
  } catch (error) {
    return fail(WEBAUTHN_FAILURE_REASONS.signatureInvalid, error instanceof Error ? error.message : undefined);
  }
  if (!verification.verified) return fail(WEBAUTHN_FAILURE_REASONS.signatureInvalid);
  const { authenticationInfo } = verification;
  return {
    credentialId: authenticationInfo.credentialID,
    newCounter: authenticationInfo.newCounter,
    userVerified: authenticationInfo.userVerified,
    deviceType: authenticationInfo.credentialDeviceType,
    backedUp: authenticationInfo.credentialBackedUp,
    origin: authenticationInfo.origin,
  };
}
