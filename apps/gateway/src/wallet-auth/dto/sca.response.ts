import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  BeneficiaryTrustConfirm,
  BeneficiaryTrustStart,
  SCA_FACTORS,
  ScaChallenge,
  ScaFactor,
  ScaFactorList,
  ScaFactorView,
  ScaLoginComplete,
  ScaLoginStart,
  SECURITY_EVENT_TYPES,
  SecurityEventType,
  SecurityState,
  TWO_FACTOR_RESET_STATUSES,
  TwoFactorResetStart,
  TwoFactorResetStatus,
  TwoFactorResetStatusValue,
} from '@paykit/contracts';

/** OpenAPI description of the SCA replies (they pass through as wallet-auth shaped them). */
export class ScaFactorViewDto implements ScaFactorView {
  @ApiProperty({ enum: SCA_FACTORS, description: 'The enrolled factor', example: 'TOTP' })
  factor!: ScaFactor;

  @ApiPropertyOptional({ description: 'PASSKEY only: the id that deletes it', example: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LU' })
  credentialId?: string;

  @ApiPropertyOptional({ description: 'A label', example: 'Authenticator app' })
  name?: string;
}

export class ScaFactorListDto implements ScaFactorList {
  @ApiProperty({ type: [ScaFactorViewDto], description: 'SMS_OTP (on the verified phone) and the enrolled TOTP and PASSKEY factors' })
  factors!: ScaFactorViewDto[];
}

/** The enrollment start, by `type` (TOTP: the shared secret; PASSKEY: WebAuthn registration options). */
export class ScaEnrollmentStartDto {
  @ApiProperty({ enum: ['TOTP', 'PASSKEY'], description: 'The factor being enrolled', example: 'TOTP' })
  type!: 'TOTP' | 'PASSKEY';

  @ApiPropertyOptional({ description: 'TOTP: the shared secret (hex), threaded back on confirm', example: '3132333435363738393031323334353637383930' })
  secret?: string;

  @ApiPropertyOptional({ description: 'TOTP: the secret in base32, for manual entry', example: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' })
  secretBase32Encoded?: string;

  @ApiPropertyOptional({
    description: 'TOTP: the otpauth:// provisioning URI (QR code payload)',
    example: 'otpauth://totp/Paykit%3Aada%40example.com?secret=GEZDGNBV&issuer=Paykit',
  })
  totpUri?: string;

  @ApiPropertyOptional({ description: 'PASSKEY: PublicKeyCredentialCreationOptions for the device', type: 'object', additionalProperties: true })
  options?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'PASSKEY: origins the ceremony may run against', example: ['https://app.example.com'] })
  allowedOrigins?: string[];

  @ApiPropertyOptional({ description: 'PASSKEY: the relying-party id', example: 'app.example.com' })
  relyingPartyId?: string;
}

export class ScaEnrollmentConfirmDto {
  @ApiProperty({ enum: ['TOTP', 'PASSKEY'], description: 'The factor enrolled', example: 'TOTP' })
  type!: 'TOTP' | 'PASSKEY';

  @ApiPropertyOptional({ description: 'TOTP: one-time recovery codes, shown once', example: ['ABCD-EFGH-JKLM'] })
  recoveryCodes?: string[];

  @ApiPropertyOptional({ type: ScaFactorViewDto, description: 'PASSKEY: the enrolled factor' })
  factor?: ScaFactorViewDto;
}

export class ScaLoginStartDto implements ScaLoginStart {
  @ApiProperty({ enum: SCA_FACTORS, description: 'The factor of this login', example: 'SMS_OTP' })
  factor!: ScaFactor;

  @ApiPropertyOptional({ type: String, description: 'SMS_OTP: echo on complete', example: 'ScaChallenge:019542f5-b3e7-1d02-0000-000000000007', nullable: true })
  challengeId?: string | null;

  @ApiPropertyOptional({ type: String, description: 'SMS_OTP: when the code expires', example: '2025-10-03T12:05:00Z', nullable: true })
  expiresAt?: string | null;

  @ApiPropertyOptional({ description: 'PASSKEY: WebAuthn assertion request options', type: 'object', additionalProperties: true, nullable: true })
  passkeyOptions?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: [String], description: 'PASSKEY: allowed origins', example: ['https://app.example.com'], nullable: true })
  allowedOrigins?: string[] | null;

  @ApiPropertyOptional({ type: String, description: 'PASSKEY: relying-party id', example: 'app.example.com', nullable: true })
  relyingPartyId?: string | null;
}

export class ScaLoginCompleteDto implements ScaLoginComplete {
  @ApiProperty({ description: 'SUCCESS once the login is complete', example: 'SUCCESS' })
  status!: string;

  @ApiPropertyOptional({ type: String, description: 'When the SCA session (180 days) ends', example: '2026-06-01T12:00:00Z', nullable: true })
  sessionExpiresAt?: string | null;
}

export class SecurityStateDto implements SecurityState {
  @ApiProperty({ enum: SECURITY_EVENT_TYPES, description: 'The event recorded', example: 'FAILED_LOGIN_ATTEMPT' })
  eventType!: SecurityEventType;

  @ApiProperty({ description: 'Locked with no expiry (lifted by RESET_PASSWORD_COMPLETED)', example: false })
  suspended!: boolean;

  @ApiPropertyOptional({ type: String, description: 'When a temporary lock ends', example: '2025-10-03T12:15:00Z', nullable: true })
  lockedUntil?: string | null;

  @ApiProperty({ description: 'Failed login attempts so far', example: 5 })
  failedAttempts!: number;
}

export class TwoFactorResetStartDto implements TwoFactorResetStart {
  @ApiProperty({ description: 'The reset', example: 'TwoFactorReset:019542f5-b3e7-1d02-0000-000000000001' })
  resetId!: string;

  @ApiPropertyOptional({ type: String, description: 'Token for the liveness SDK, bound to this reset', nullable: true })
  livenessAccessToken?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Hosted verification page (none in the sandbox)', nullable: true })
  verificationLink?: string | null;

  @ApiPropertyOptional({ type: String, description: 'End of the reset window (30 minutes)', example: '2025-10-03T12:30:00Z', nullable: true })
  expiresAt?: string | null;
}

export class TwoFactorResetStatusDto implements TwoFactorResetStatus {
  @ApiProperty({ enum: TWO_FACTOR_RESET_STATUSES, description: 'The reset status', example: 'INITIATED' })
  status!: TwoFactorResetStatusValue;

  @ApiProperty({ enum: SCA_FACTORS, description: 'The factor reset', example: 'TOTP' })
  factor!: ScaFactor;

  @ApiPropertyOptional({ enum: ['PENDING', 'COMPLETED'], description: 'The replacement factor (null for SMS_OTP)', nullable: true })
  enrollmentStatus?: 'PENDING' | 'COMPLETED' | null;

  @ApiProperty({ description: 'When the reset window closes', example: '2025-10-03T12:30:00Z' })
  expiresAt!: string;

  @ApiPropertyOptional({ type: String, description: 'When the reset completed', nullable: true })
  completedAt?: string | null;
}

export class ScaChallengeDto implements ScaChallenge {
  @ApiProperty({ description: 'The challenge', example: 'ScaChallenge:019542f5-b3e7-1d02-0000-000000000007' })
  id!: string;

  @ApiProperty({ description: 'After this instant it can no longer be authorized (5 minutes)', example: '2025-10-03T12:05:00Z' })
  expiresAt!: string;

  @ApiProperty({ enum: SCA_FACTORS, description: 'The factor it was issued for', example: 'SMS_OTP' })
  factor!: ScaFactor;

  @ApiProperty({ enum: SCA_FACTORS, isArray: true, description: 'Factors that may satisfy it', example: ['SMS_OTP'] })
  availableFactors!: ScaFactor[];

  @ApiPropertyOptional({
    type: String,
    description: 'What it authorizes: CURRENCY_CONVERSION, PAYOUT, FUNDING, BENEFICIARY_TRUST, BENEFICIARY_UNTRUST',
    example: 'PAYOUT',
    nullable: true,
  })
  purpose?: string | null;

  @ApiPropertyOptional({
    description: 'PASSKEY: assertion options; `challenge` is bound to the amount, currency and payee',
    type: 'object',
    additionalProperties: true,
    nullable: true,
  })
  passkeyAssertionOptions?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: [String], description: 'PASSKEY: allowed origins', example: ['https://app.example.com'], nullable: true })
  passkeyAllowedOrigins?: string[] | null;
}

export class BeneficiaryTrustStartDto implements BeneficiaryTrustStart {
  @ApiPropertyOptional({ type: ScaChallengeDto, description: 'The challenge the confirm call answers' })
  scaChallenge?: ScaChallengeDto;
}

export class BeneficiaryTrustConfirmDto implements BeneficiaryTrustConfirm {
  @ApiProperty({ description: 'Whether the beneficiary is now trusted', example: true })
  trusted!: boolean;
}
