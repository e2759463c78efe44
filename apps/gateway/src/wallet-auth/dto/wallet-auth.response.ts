import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  AUTH_METHOD_TYPES,
  AuthMethod,
  AuthMethodType,
  AuthSession,
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
      'PASSKEY, OAUTH and refresh, once: the session private key sealed to clientPublicKey (base58check of the 33-byte encapsulated key and the HPKE ciphertext; open with decryptCredentialBundle). EMAIL_OTP/SMS_OTP sessions use the client key and omit it.',
    example: 'w99a5xV6A75TfoAUkZn869fVyDYvgVsKrawMALZXmrauZd8hEv66EkPU1Z42CUaHESQjcA5bqd8dynTGBMLWB9ewtXWPEVbZvocB4Tw2K1vQVp7uwjf',
  })
  encryptedSessionSigningKey?: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class AuthSessionListDto implements ReplyOf<typeof WALLET_AUTH_SUBJECTS.listSessions> {
  @ApiProperty({ type: [AuthSessionDto], description: 'Active sessions of the account (not paginated)' }) data!: AuthSessionDto[];
}

export class CredentialChallengeDto implements Partial<OtpChallengeResponse>, Partial<PasskeyChallengeResponse> {
  @ApiPropertyOptional({
    description: 'EMAIL_OTP/SMS_OTP: JSON string {version, data, dataSignature, enclaveQuorumPublic}; pass it to encryptOtpCodeToBundle, pinned to GET /auth/enclave-key',
    example: '{"version":"v1.0.0","data":"7b22746172676574507562...","dataSignature":"3045...","enclaveQuorumPublic":"04a1..."}',
  })
  otpEncryptionTargetBundle?: string;
  @ApiPropertyOptional({ description: 'PASSKEY: the challenge for navigator.credentials.get (UTF-8 encode it)', example: 'q1c8m6M2mB2f9Z8JwzM4k3J3fX6VqQv0Y4eM9y2Jb5E' })
  challenge?: string;
  @ApiPropertyOptional({ description: 'PASSKEY: send back as the `Request-Id` header of verify', example: 'Request:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) requestId?: string;
  @ApiPropertyOptional({ description: 'PASSKEY: the WebAuthn credential id to assert with', example: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LU' }) credentialId?: string;
  @ApiProperty({ description: 'The challenge is valid until this instant', example: '2025-10-13T12:10:00.000Z' }) expiresAt!: string;
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
