import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsE164Phone, IsOneOf, MatchesPattern } from '@paykit/validation';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { typedIdPattern } from '../ids';
import { AUTH_METHOD_TYPES, AuthMethodType, PASSKEY_TRANSPORTS, PasskeyTransport, SIGNED_OPERATIONS, SignedOperation } from './enums';

const INTERNAL_ACCOUNT_ID = typedIdPattern('InternalAccount');
const HEX_P256_PUBLIC_KEY = /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const REQUEST_DIGEST = /^[0-9a-f]{64}$/;

/** What the gateway passes along from the HTTP request to a service that runs a signed action. */
export class SignedRetryInput {
  @ApiProperty({ description: 'canonicalRequestDigest of the HTTP request', example: 'a3f1'.repeat(16) })
  @MatchesPattern(REQUEST_DIGEST, 'a lowercase hex SHA-256 digest')
  requestDigest!: string;

  @ApiPropertyOptional({ description: 'Service-Wallet-Signature header, as sent' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  signature?: string;

  @ApiPropertyOptional({ description: 'Request-Id header, as sent', example: 'Request:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  requestId?: string;
}

export class PasskeyAttestationInput {
  @ApiProperty({ description: 'WebAuthn credential id (rawId), base64url', example: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LU' })
  @MatchesPattern(BASE64URL, 'base64url')
  @MaxLength(1024)
  credentialId!: string;

  @ApiProperty({ description: 'clientDataJSON of the registration, base64url (note the spelling)', example: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0' })
  @MatchesPattern(BASE64URL, 'base64url')
  @MaxLength(16384)
  clientDataJson!: string;

  @ApiProperty({ description: 'attestationObject (CBOR), base64url', example: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YQ' })
  @MatchesPattern(BASE64URL, 'base64url')
  @MaxLength(65536)
  attestationObject!: string;

  @ApiPropertyOptional({ enum: PASSKEY_TRANSPORTS, isArray: true, description: 'Authenticator transports', example: ['internal', 'hybrid'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(8)
  @IsOneOf(PASSKEY_TRANSPORTS, { each: true })
  transports?: PasskeyTransport[];
}

export class PasskeyAssertionInput {
  @ApiProperty({ description: 'WebAuthn credential id, base64url', example: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LU' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  credentialId!: string;

  @ApiProperty({ description: 'clientDataJSON, base64url (note the spelling)', example: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(16384)
  clientDataJson!: string;

  @ApiProperty({ description: 'authenticatorData, base64url', example: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(16384)
  authenticatorData!: string;

  @ApiProperty({ description: 'DER ECDSA signature, base64url', example: 'MEUCIQDx' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  signature!: string;

  @ApiPropertyOptional({ description: 'userHandle, base64url', example: 'dXNlci0x' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  userHandle?: string;
}

// ---- Request payloads: HTTP bodies (the gateway validates them) ----

export class CreateCredentialBody {
  @ApiProperty({ enum: AUTH_METHOD_TYPES, description: 'Credential type', example: 'PASSKEY' })
  @IsOneOf(AUTH_METHOD_TYPES)
  type!: AuthMethodType;

  @ApiProperty({ description: 'Embedded wallet internal account the credential authenticates', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(INTERNAL_ACCOUNT_ID, 'an internal account id (InternalAccount:<uuid>)')
  accountId!: string;

  @ApiPropertyOptional({ description: 'EMAIL_OTP: the address; defaults to the customer email of the account', example: 'ada@example.com' })
  @IsOptional()
  @IsEmail({}, { context: { constraint: { format: 'email' } } })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ description: 'SMS_OTP: phone number in E.164 format', example: '+14155550123' })
  @ValidateIf((o: CreateCredentialBody) => o.type === 'SMS_OTP' || o.phoneNumber !== undefined)
  @IsE164Phone()
  phoneNumber?: string;

  @ApiPropertyOptional({ description: 'PASSKEY: a name for the passkey', example: 'iPhone Face ID' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  nickname?: string;

  @ApiPropertyOptional({
    description: 'PASSKEY: the WebAuthn registration challenge (UTF-8 string) the attestation was made for',
    example: 'ArkQi2yAYHPlgnJNFBlneIwchQdWXBOTrdB-AmMUB21Lx',
  })
  @ValidateIf((o: CreateCredentialBody) => o.type === 'PASSKEY' || o.challenge !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(512)
  challenge?: string;

  @ApiPropertyOptional({ type: PasskeyAttestationInput, description: 'PASSKEY: the WebAuthn attestation' })
  @ValidateIf((o: CreateCredentialBody) => o.type === 'PASSKEY' || o.attestation !== undefined)
  @IsDefined()
  @ValidateNested()
  @Type(() => PasskeyAttestationInput)
  attestation?: PasskeyAttestationInput;

  @ApiPropertyOptional({
    description: 'OAUTH: an OIDC ID token (JWT) of a supported issuer',
    example: 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2FjY291bnRzLmdvb2dsZS5jb20ifQ.c2ln',
  })
  @ValidateIf((o: CreateCredentialBody) => o.type === 'OAUTH' || o.oidcToken !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(16384)
  oidcToken?: string;
}

export class ListByAccountQuery {
  @ApiProperty({ description: 'Embedded wallet internal account', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(INTERNAL_ACCOUNT_ID, 'an internal account id (InternalAccount:<uuid>)')
  accountId!: string;
}

export class ChallengeCredentialBody {
  @ApiPropertyOptional({ description: 'PASSKEY: the client P-256 public key (hex) the session key will be sealed to', example: '04' + 'ab'.repeat(64) })
  @IsOptional()
  @MatchesPattern(HEX_P256_PUBLIC_KEY, 'a P-256 public key in hex (33-byte compressed or 65-byte uncompressed)')
  clientPublicKey?: string;
}

export class VerifyCredentialBody {
  @ApiProperty({ enum: AUTH_METHOD_TYPES, description: 'Type of the credential being verified', example: 'EMAIL_OTP' })
  @IsOneOf(AUTH_METHOD_TYPES)
  type!: AuthMethodType;

  @ApiPropertyOptional({
    description: 'EMAIL_OTP/SMS_OTP: JSON string {encappedPublic, ciphertext} from encryptOtpCodeToBundle',
    example: '{"encappedPublic":"04ab...","ciphertext":"9f1c..."}',
  })
  @ValidateIf((o: VerifyCredentialBody) => o.type === 'EMAIL_OTP' || o.type === 'SMS_OTP' || o.encryptedOtpBundle !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(8192)
  encryptedOtpBundle?: string;

  @ApiPropertyOptional({ description: 'OAUTH: a fresh OIDC ID token whose nonce is SHA-256 of clientPublicKey', example: 'eyJhbGciOiJSUzI1NiJ9.eyJub25jZSI6Ii4uLiJ9.c2ln' })
  @ValidateIf((o: VerifyCredentialBody) => o.type === 'OAUTH' || o.oidcToken !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(16384)
  oidcToken?: string;

  @ApiPropertyOptional({ description: 'OAUTH: the client P-256 public key (hex) the session key is sealed to', example: '04' + 'ab'.repeat(64) })
  @ValidateIf((o: VerifyCredentialBody) => o.type === 'OAUTH' || o.clientPublicKey !== undefined)
  @MatchesPattern(HEX_P256_PUBLIC_KEY, 'a P-256 public key in hex (33-byte compressed or 65-byte uncompressed)')
  clientPublicKey?: string;

  @ApiPropertyOptional({ type: PasskeyAssertionInput, description: 'PASSKEY: the WebAuthn assertion' })
  @ValidateIf((o: VerifyCredentialBody) => o.type === 'PASSKEY' || o.assertion !== undefined)
  @IsDefined()
  @ValidateNested()
  @Type(() => PasskeyAssertionInput)
  assertion?: PasskeyAssertionInput;
}

export class RefreshSessionBody {
  @ApiProperty({ description: 'Client P-256 public key (hex) the new session key is sealed to', example: '04' + 'ab'.repeat(64) })
  @MatchesPattern(HEX_P256_PUBLIC_KEY, 'a P-256 public key in hex (33-byte compressed or 65-byte uncompressed)')
  clientPublicKey!: string;
}

export class ExportWalletBody {
  @ApiProperty({ description: 'Client P-256 public key (hex) the wallet credentials are sealed to', example: '04' + 'ab'.repeat(64) })
  @MatchesPattern(HEX_P256_PUBLIC_KEY, 'a P-256 public key in hex (33-byte compressed or 65-byte uncompressed)')
  clientPublicKey!: string;
}

/** Body of `PATCH /internal-accounts/{id}`: every field optional, at least one given (the service refuses an update without any). */
export class UpdateWalletPrivacyBody {
  @ApiPropertyOptional({ description: 'Whether the embedded wallet is private', example: true })
  @IsOptional()
  @IsBoolean()
  privateEnabled?: boolean;
}

// ---- Request payloads: messages (HTTP body + what the gateway adds) ----

export class CreateCredentialRequest extends CreateCredentialBody {
  @ApiProperty({ type: SignedRetryInput })
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

export class CredentialIdRequest {
  @ApiProperty({ description: 'Credential id', example: 'AuthMethod:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  authMethodId!: string;
}

export class ChallengeCredentialRequest extends ChallengeCredentialBody {
  @ApiProperty({ description: 'Credential id', example: 'AuthMethod:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  authMethodId!: string;
}

export class VerifyCredentialRequest extends VerifyCredentialBody {
  @ApiProperty({ description: 'Credential id', example: 'AuthMethod:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  authMethodId!: string;

  @ApiProperty({ type: SignedRetryInput })
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

export class RevokeCredentialRequest extends CredentialIdRequest {
  @ApiProperty({ type: SignedRetryInput })
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

export class SessionIdRequest {
  @ApiProperty({ description: 'Session id', example: 'Session:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  sessionId!: string;

  @ApiProperty({ type: SignedRetryInput })
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

export class RefreshSessionRequest extends RefreshSessionBody {
  @ApiProperty({ description: 'Session id', example: 'Session:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  sessionId!: string;

  @ApiProperty({ type: SignedRetryInput })
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

export class ExportWalletRequest extends ExportWalletBody {
  @ApiProperty({ description: 'Embedded wallet internal account', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(INTERNAL_ACCOUNT_ID, 'an internal account id (InternalAccount:<uuid>)')
  accountId!: string;

  @ApiProperty({ type: SignedRetryInput })
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

export class EmailBindingRequest {
  @ApiProperty({ description: 'Customer id', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  customerId!: string;
}

export class UpdateEmailBindingRequest extends EmailBindingRequest {
  @ApiProperty({ description: "The customer's email after its update", example: 'ada@example.com' })
  @IsEmail({}, { context: { constraint: { format: 'email' } } })
  @MaxLength(254)
  email!: string;
}

/** What a signed-retry challenge is bound to: the account whose sessions may sign, the operation, and the digest of what is signed. */
export class SignedRetryBinding {
  @ApiProperty({ description: 'Internal account whose sessions may sign', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(INTERNAL_ACCOUNT_ID, 'an internal account id (InternalAccount:<uuid>)')
  accountId!: string;

  @ApiProperty({ enum: SIGNED_OPERATIONS, example: 'CARD_UPDATE' })
  @IsOneOf(SIGNED_OPERATIONS)
  operation!: SignedOperation;

  @ApiProperty({ description: 'canonicalRequestDigest of the request', example: 'a3f1'.repeat(16) })
  @MatchesPattern(REQUEST_DIGEST, 'a lowercase hex SHA-256 digest')
  requestDigest!: string;
}

export class IssueSignedRetryRequest extends SignedRetryBinding {
  @ApiPropertyOptional({
    description: "When the challenge expires, instead of the default time to live (a quote's challenge expires with the quote)",
    format: 'date-time',
    example: '2025-10-13T12:05:00.000Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  expiresAt?: string;

  @ApiPropertyOptional({
    description: 'What the signer approves, named in payloadToSign as `parameters` (a quote: its id, amount and currency)',
    example: { quoteId: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69', amount: '10000', currency: 'USDC' },
  })
  @IsOptional()
  @IsObject()
  parameters?: Record<string, string>;
}

export class ConsumeSignedRetryRequest extends SignedRetryBinding {
  @ApiPropertyOptional({ description: 'Service-Wallet-Signature header, as sent' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  signature?: string;

  @ApiPropertyOptional({ description: 'Request-Id header, as sent' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  requestId?: string;
}

// ---- Delegated keys ----

export class CreateDelegatedKeyBody {
  @ApiProperty({ description: 'The card whose embedded wallet funding source the key signs for', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @MaxLength(256)
  cardId!: string;

  @ApiProperty({
    description: "The embedded wallet internal account funding the card; with cardId it names the card's funding source",
    example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  })
  @IsString()
  @MaxLength(256)
  internalAccountId!: string;

  @ApiProperty({ description: 'A label for the key', minLength: 1, maxLength: 256, example: 'Card payments key' })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  nickname!: string;
}

export class CreateDelegatedKeyRequest extends CreateDelegatedKeyBody {
  @ApiProperty({ type: SignedRetryInput })
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

export class ListDelegatedKeysQuery {
  @ApiPropertyOptional({ description: 'Only the keys of this embedded wallet internal account', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  accountId?: string;

  @ApiPropertyOptional({ description: 'Only the keys of this card funding source', example: 'CardFundingSource:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  fundingSourceId?: string;
}

export class DelegatedKeyIdRequest {
  @ApiProperty({ description: 'Delegated key id', example: 'DelegatedKey:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  delegatedKeyId!: string;
}
