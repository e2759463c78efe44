/**
 * Test-only WebAuthn authenticator: a P-256 key pair in memory that answers registration and
 * authentication ceremonies with genuine, verifiable WebAuthn data (the same bytes a browser and a
 * platform authenticator would hand to the relying party).
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';

// ---------------------------------------------------------------------------------------------
// Minimal CBOR encoder (RFC 8949): unsigned and negative integers, byte strings, text strings and
// maps, which is all that attestation objects and COSE keys use. Maps keep insertion order, so
// callers write keys in CTAP2 canonical order themselves.

export type CborValue = number | string | Uint8Array | ReadonlyMap<CborValue, CborValue>;

const CBOR_MAJOR_UNSIGNED = 0;
const CBOR_MAJOR_NEGATIVE = 1;
const CBOR_MAJOR_BYTES = 2;
const CBOR_MAJOR_TEXT = 3;
const CBOR_MAJOR_MAP = 5;

function cborHead(majorType: number, argument: number): Buffer {
  if (!Number.isSafeInteger(argument) || argument < 0) throw new RangeError(`CBOR argument out of range: ${argument}`);
  const typeBits = majorType << 5;
  if (argument < 24) return Buffer.from([typeBits | argument]);
  if (argument < 0x100) return Buffer.from([typeBits | 24, argument]);
  if (argument < 0x10000) {
    const head = Buffer.alloc(3);
    head[0] = typeBits | 25;
    head.writeUInt16BE(argument, 1);
    return head;
  }
  if (argument < 0x100000000) {
    const head = Buffer.alloc(5);
    head[0] = typeBits | 26;
    head.writeUInt32BE(argument, 1);
    return head;
  }
  const head = Buffer.alloc(9);
  head[0] = typeBits | 27;
  head.writeBigUInt64BE(BigInt(argument), 1);
  return head;
}

export function encodeCbor(value: CborValue): Uint8Array {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError('only integers are supported by this CBOR encoder');
    // A negative integer n is encoded as major type 1 with argument -1 - n.
    return value >= 0 ? cborHead(CBOR_MAJOR_UNSIGNED, value) : cborHead(CBOR_MAJOR_NEGATIVE, -1 - value);
  }
  if (typeof value === 'string') {
    const utf8 = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(CBOR_MAJOR_TEXT, utf8.length), utf8]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(CBOR_MAJOR_BYTES, value.length), value]);
  const parts: Uint8Array[] = [cborHead(CBOR_MAJOR_MAP, value.size)];
  for (const [entryKey, entryValue] of value) parts.push(encodeCbor(entryKey), encodeCbor(entryValue));
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------------------------------------
// Authenticator data layout (WebAuthn §6.1).

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL_DATA = 0x40;
const COSE_KEY_TYPE_EC2 = 2;
const COSE_ALGORITHM_ES256 = -7;
const COSE_CURVE_P256 = 1;
const CREDENTIAL_ID_BYTES = 32;
const AAGUID_BYTES = 16;

/** Assertion in the service's wire shape (note the `clientDataJson` spelling); all fields base64url. */
export interface SoftwarePasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

export interface SoftwareAuthenticatorOptions {
  /** `packed` self-attestation (default) or `none`. */
  attestation?: 'packed' | 'none';
  /** Whether ceremonies report user verification by default (default true). */
  userVerification?: boolean;
  /** 16 bytes; defaults to all zeros, as many platform authenticators report. */
  aaguid?: Uint8Array;
  /** Counter value before the first assertion (default 0). */
  initialSignCount?: number;
  /** Added to the counter on each assertion; 0 models authenticators that never count (default 1). */
  signCountStep?: number;
  /** Optional user handle returned with assertions (a discoverable credential's user.id). */
  userHandle?: Uint8Array;
}

export interface CeremonyInput {
  rpId: string;
  origin: string;
  /** The challenge as the service issued it, a UTF-8 string; the browser base64url-encodes its bytes. */
  challenge: string;
  /** Override the UP flag (default set) to simulate a response without user presence. */
  userPresent?: boolean;
  /** Override the UV flag for this ceremony. */
  userVerified?: boolean;
  /** Override the clientData type (default webauthn.create / webauthn.get). */
  clientDataType?: string;
}

export interface AssertionInput extends CeremonyInput {
  /** Force the counter written into this assertion instead of stepping it, e.g. to go backwards. */
  signCount?: number;
}

function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

function sha256(bytes: Uint8Array | string): Buffer {
  return createHash('sha256').update(bytes).digest();
}

function uint32BigEndian(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value >>> 0, 0);
  return bytes;
}

function uint16BigEndian(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value, 0);
  return bytes;
}

export class SoftwareAuthenticator {
  readonly credentialIdBytes: Uint8Array;
  /** base64url, as `id`/`rawId` and `credentialId` carry it. */
  readonly credentialId: string;
  /** The COSE_Key written into attested credential data (what the relying party stores). */
  readonly cosePublicKey: Uint8Array;
  readonly publicKeySpkiDer: Uint8Array;
  private readonly privateKey: KeyObject;
  private readonly attestation: 'packed' | 'none';
  private readonly userVerification: boolean;
  private readonly aaguid: Uint8Array;
  private readonly signCountStep: number;
  private readonly userHandle: Uint8Array | undefined;
  private currentSignCount: number;

  constructor(options: SoftwareAuthenticatorOptions = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    this.attestation = options.attestation ?? 'packed';
    this.userVerification = options.userVerification ?? true;
    this.aaguid = options.aaguid ?? new Uint8Array(AAGUID_BYTES);
    if (this.aaguid.length !== AAGUID_BYTES) throw new RangeError('aaguid must be 16 bytes');
    this.currentSignCount = options.initialSignCount ?? 0;
    this.signCountStep = options.signCountStep ?? 1;
    this.userHandle = options.userHandle;
    this.credentialIdBytes = randomBytes(CREDENTIAL_ID_BYTES);
    this.credentialId = base64url(this.credentialIdBytes);

    const jwk = publicKey.export({ format: 'jwk' });
    if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') throw new Error('P-256 key export lacks coordinates');
    // CTAP2 canonical key order for a COSE EC2 key: 1 (kty), 3 (alg), -1 (crv), -2 (x), -3 (y).
    this.cosePublicKey = encodeCbor(
      new Map<CborValue, CborValue>([
        [1, COSE_KEY_TYPE_EC2],
        [3, COSE_ALGORITHM_ES256],
        [-1, COSE_CURVE_P256],
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]),
    );
    this.publicKeySpkiDer = publicKey.export({ format: 'der', type: 'spki' });
  }

  get signCount(): number {
    return this.currentSignCount;
  }

  /** Answers navigator.credentials.create(): a RegistrationResponseJSON as the browser serializes it. */
  createRegistration(input: CeremonyInput): RegistrationResponseJSON {
    const clientDataJson = this.clientDataJson(input, 'webauthn.create');
    const attestedCredentialData = Buffer.concat([this.aaguid, uint16BigEndian(this.credentialIdBytes.length), this.credentialIdBytes, this.cosePublicKey]);
    const authenticatorData = Buffer.concat([this.authenticatorDataPrefix(input, FLAG_ATTESTED_CREDENTIAL_DATA, this.currentSignCount), attestedCredentialData]);
    const attestationStatement =
      this.attestation === 'packed'
        ? // Self attestation: the credential key signs authData || clientDataHash; no certificate chain.
          new Map<CborValue, CborValue>([
            ['alg', COSE_ALGORITHM_ES256],
            ['sig', this.signOver(authenticatorData, clientDataJson)],
          ])
        : new Map<CborValue, CborValue>();
    // Canonical order sorts the shorter keys first: fmt, attStmt, authData.
    const attestationObject = encodeCbor(
      new Map<CborValue, CborValue>([
        ['fmt', this.attestation],
        ['attStmt', attestationStatement],
        ['authData', authenticatorData],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: base64url(clientDataJson),
        attestationObject: base64url(attestationObject),
        authenticatorData: base64url(authenticatorData),
        transports: ['internal'],
        publicKeyAlgorithm: COSE_ALGORITHM_ES256,
        publicKey: base64url(this.publicKeySpkiDer),
      },
    };
  }

  /** Answers navigator.credentials.get() in the service's assertion wire shape. */
  createAssertion(input: AssertionInput): SoftwarePasskeyAssertion {
    const signCount = input.signCount ?? this.currentSignCount + this.signCountStep;
    this.currentSignCount = signCount;
    const clientDataJson = this.clientDataJson(input, 'webauthn.get');
    const authenticatorData = this.authenticatorDataPrefix(input, 0, signCount);
    return {
      credentialId: this.credentialId,
      clientDataJson: base64url(clientDataJson),
      authenticatorData: base64url(authenticatorData),
      signature: base64url(this.signOver(authenticatorData, clientDataJson)),
      ...(this.userHandle ? { userHandle: base64url(this.userHandle) } : {}),
    };
  }

  private clientDataJson(input: CeremonyInput, defaultType: string): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: input.clientDataType ?? defaultType,
        challenge: base64url(Buffer.from(input.challenge, 'utf8')),
        origin: input.origin,
        crossOrigin: false,
      }),
      'utf8',
    );
  }

  private authenticatorDataPrefix(input: CeremonyInput, extraFlags: number, signCount: number): Buffer {
    let flags = extraFlags;
    if (input.userPresent ?? true) flags |= FLAG_USER_PRESENT;
    if (input.userVerified ?? this.userVerification) flags |= FLAG_USER_VERIFIED;
    return Buffer.concat([sha256(input.rpId), Buffer.from([flags]), uint32BigEndian(signCount)]);
  }

  /** ES256 over authenticatorData || SHA-256(clientDataJSON), DER-encoded as WebAuthn requires. */
  private signOver(authenticatorData: Uint8Array, clientDataJson: Uint8Array): Buffer {
    return sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJson)]), { key: this.privateKey, dsaEncoding: 'der' });
  }
}
