import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  AUTH_METHOD_TYPES,
  AuthMethod,
  AuthMethodType,
  AuthSession,
  DELEGATED_KEY_STATUSES,
  DelegatedKey,
  DelegatedKeyStatus,
  EnclaveKey,
  OtpChallengeResponse,
  PasskeyChallengeResponse,
  ReplyOf,
  SignedRetryChallenge,
  WALLET_AUTH_SUBJECTS,
  WalletExport,
} from '@paykit/contracts';

/** OpenAPI description of the wallet-auth resources (replies pass through as the service shaped them). */
export class SignedRetryChallengeDto implements SignedRetryChallenge {
  @ApiProperty({
    description: 'Sign this string byte for byte (ECDSA P-256/SHA-256 API-key stamp) with a session key',
    example: '{"type":"SIGNED_REQUEST","requestId":"Request:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69","operation":"CREDENTIAL_ADD"}',
  })
  payloadToSign!: string;

  @ApiProperty({ description: 'Send back as the `Request-Id` header of the signed retry; single use', example: 'Request:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  requestId!: string;

  @ApiProperty({ description: 'The retry must arrive before this instant (5 minutes after issue)', example: '2025-10-13T12:05:00.000Z' })
  expiresAt!: string;

  type?: AuthMethodType;
}

/** The 202 of wallet-auth's credential and session actions: the challenge plus the credential type it is about. */
export class AuthSignedRetryChallengeDto extends SignedRetryChallengeDto {
  @ApiProperty({
    enum: AUTH_METHOD_TYPES,
    description: 'The credential being added, revoked or verified; for a session revocation, the credential that opened the session',
    example: 'EMAIL_OTP',
  })
  declare type: AuthMethodType;
}

export class AuthMethodDto implements AuthMethod {
  @ApiProperty({ description: 'Credential id', example: 'AuthMethod:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ description: 'Embedded wallet internal account', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
  @ApiProperty({ enum: AUTH_METHOD_TYPES, example: 'EMAIL_OTP' }) type!: AuthMethodType;
  @ApiProperty({ description: 'EMAIL_OTP: the email; SMS_OTP: the phone number; OAUTH: the token email claim; PASSKEY: the given name', example: 'ada@example.com' })
  nickname!: string;
  @ApiPropertyOptional({ description: 'PASSKEY: base64url WebAuthn credential id (allowCredentials[].id)', example: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LU' })
  credentialId?: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

/** A credential just added: an OTP credential added by signed retry also carries the target of its first code. */
export class CreatedAuthMethodDto extends AuthMethodDto {
  @ApiPropertyOptional({
    description: 'EMAIL_OTP/SMS_OTP added by signed retry: the target the first code is encrypted to (verify then activates the credential); absent otherwise',
    example: '{"version":"v1.0.0","data":"7b22746172676574507562...","dataSignature":"3045...","enclaveQuorumPublic":"04a1..."}',
  })
  otpEncryptionTargetBundle?: string;
}

export class AuthMethodListDto implements ReplyOf<typeof WALLET_AUTH_SUBJECTS.listCredentials> {
  @ApiProperty({ type: [AuthMethodDto], description: 'Every active credential of the account (not paginated)' }) data!: AuthMethodDto[];
}

export class AuthSessionDto implements AuthSession {
  @ApiProperty({ description: 'Session id', example: 'Session:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ description: 'The credential the session came from', example: 'AuthMethod:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) authMethodId!: string;
  @ApiProperty({ example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
  @ApiProperty({ enum: AUTH_METHOD_TYPES, example: 'PASSKEY' }) type!: AuthMethodType;
  @ApiProperty({ example: 'iPhone Face ID' }) nickname!: string;
  @ApiPropertyOptional({ example: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LU' }) credentialId?: string;
  @ApiProperty({ description: 'The session key signs until this instant', example: '2025-10-13T12:15:00.000Z' }) expiresAt!: string;
  @ApiPropertyOptional({
    description:
      'PASSKEY, OAUTH and refresh with an uncompressed clientPublicKey, once: the session private key sealed to it (base58check of the 33-byte encapsulated key and the HPKE ciphertext; open with decryptCredentialBundle). Omitted when the client holds the session key (a compressed clientPublicKey, and EMAIL_OTP/SMS_OTP).',
    example: 'w99a5xV6A75TfoAUkZn869fVyDYvgVsKrawMALZXmrauZd8hEv66EkPU1Z42CUaHESQjcA5bqd8dynTGBMLWB9ewtXWPEVbZvocB4Tw2K1vQVp7uwjf',
  })
  encryptedSessionSigningKey?: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class AuthSessionListDto implements ReplyOf<typeof WALLET_AUTH_SUBJECTS.listSessions> {
  @ApiProperty({ type: [AuthSessionDto], description: 'Active sessions of the account (not paginated)' }) data!: AuthSessionDto[];
}

/** EMAIL_OTP/SMS_OTP challenge answer: the credential plus the HPKE target of the fresh code. */
export class OtpChallengeDto extends AuthMethodDto implements OtpChallengeResponse {
  @ApiProperty({
    description: 'JSON string {version, data, dataSignature, enclaveQuorumPublic}: the target the code is encrypted to (encryptOtpCodeToBundle, pinned to GET /auth/enclave-key)',
    example: '{"version":"v1.0.0","data":"7b22746172676574507562...","dataSignature":"3045...","enclaveQuorumPublic":"04a1..."}',
  })
  otpEncryptionTargetBundle!: string;
}

/** PASSKEY challenge answer: the credential plus what the assertion is made over. */
export class PasskeyChallengeDto extends AuthMethodDto implements PasskeyChallengeResponse {
  @ApiProperty({ description: 'The WebAuthn credential id to assert with (allowCredentials[].id)', example: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LU' })
  declare credentialId: string;
  @ApiProperty({
    description: 'Lowercase hex SHA-256 of the pending session-creation request; pass its UTF-8 bytes as the challenge of navigator.credentials.get',
    example: '6b35a4c41d9aa7a2a0e742f9f9e7a1c2d65a2db33a3fb748f6d4f1ce78d9a729',
  })
  challenge!: string;
  @ApiProperty({ description: 'Send back as the `Request-Id` header of verify', example: 'Request:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) requestId!: string;
  @ApiProperty({ description: 'The assertion must arrive before this instant', example: '2025-10-13T12:10:00.000Z' }) expiresAt!: string;
}

export class EnclaveKeyDto implements EnclaveKey {
  @ApiProperty({ description: 'Uncompressed P-256 public key (hex) signing every otpEncryptionTargetBundle; pin it in encryptOtpCodeToBundle', example: '04a1b2c3' })
  enclaveQuorumPublic!: string;
}

export class WalletExportDto implements WalletExport {
  @ApiProperty({ description: 'The exported internal account', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ description: 'Same as `id`', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
  @ApiProperty({
    description: 'The wallet private key sealed to clientPublicKey (open with decryptCredentialBundle)',
    example: 'w99a5xV6A75TfoAUkZn869fVyDYvgVsKrawMALZXmrauZd8hEv66',
  })
  encryptedWalletCredentials!: string;
}

export class DelegatedKeyDto implements DelegatedKey {
  @ApiProperty({ description: 'Delegated key id', example: 'DelegatedKey:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ description: 'The card the key signs for', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) cardId!: string;
  @ApiProperty({
    description: 'The card funding source the key signs for (the card and its embedded wallet account)',
    example: 'CardFundingSource:0190f1c2-7a6b-8cc1-9a2e-1f2d3c4b5a69',
  })
  fundingSourceId!: string;
  @ApiProperty({ description: 'The embedded wallet internal account funding the card', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
  @ApiProperty({ description: 'Compressed P-256 public key (hex) of the key the service holds', example: '02' + 'a1'.repeat(32) }) publicKey!: string;
  @ApiProperty({ description: 'A label for the key', example: 'Card payments key' }) nickname!: string;
  @ApiProperty({ enum: DELEGATED_KEY_STATUSES, description: 'PENDING until the activation leg is signed; ACTIVE keys can sign; REVOKED keys never again', example: 'ACTIVE' })
  status!: DelegatedKeyStatus;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class DelegatedKeyListDto implements ReplyOf<typeof WALLET_AUTH_SUBJECTS.listDelegatedKeys> {
  @ApiProperty({ type: [DelegatedKeyDto], description: 'The keys matching the filters (PENDING and REVOKED included)' }) data!: DelegatedKeyDto[];
}
