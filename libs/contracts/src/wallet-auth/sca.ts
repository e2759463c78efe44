import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOneOf, MatchesPattern } from '@paykit/validation';
import { Type } from 'class-transformer';
import { IsBoolean, IsIP, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { typedIdPattern } from '../ids';
import { Empty } from './replies';

/** Strong Customer Authentication (SCA): wire values of the reference's SCA tag. Frozen. */
export const SCA_FACTORS = ['SMS_OTP', 'TOTP', 'PASSKEY'] as const;
export type ScaFactor = (typeof SCA_FACTORS)[number];
/** The factors a customer opts into (SMS_OTP rides on the verified phone). */
export const SCA_ENROLLABLE_FACTORS = ['TOTP', 'PASSKEY'] as const;
export type ScaEnrollableFactor = (typeof SCA_ENROLLABLE_FACTORS)[number];
/** What a challenge authorizes (`ScaChallenge.purpose`). */
export const SCA_CHALLENGE_PURPOSES = ['LOGIN', 'CURRENCY_CONVERSION', 'PAYOUT', 'FUNDING', 'BENEFICIARY_TRUST', 'BENEFICIARY_UNTRUST'] as const;
export type ScaChallengePurpose = (typeof SCA_CHALLENGE_PURPOSES)[number];
export const SECURITY_EVENT_TYPES = ['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT'] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];
export const TWO_FACTOR_RESET_STATUSES = ['INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED', 'COMPLETED', 'REJECTED', 'EXPIRED'] as const;
export type TwoFactorResetStatusValue = (typeof TWO_FACTOR_RESET_STATUSES)[number];
/** The sandbox's liveness outcomes (POST /sandbox/sca/factors/reset/{resetId}/liveness). */
export const SANDBOX_LIVENESS_OUTCOMES = ['PENDING_REVIEW', 'LIVENESS_PASSED', 'REJECTED'] as const;
export type SandboxLivenessOutcome = (typeof SANDBOX_LIVENESS_OUTCOMES)[number];

/**
 * The European Economic Area (EU member states, Iceland, Liechtenstein, Norway): a customer whose
 * address is in one of them is SCA-regulated (PSD2). Everyone else gets 409 on the SCA endpoints.
 */
export const SCA_REGULATED_COUNTRIES: readonly string[] = Object.freeze([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
  'IS', 'LI', 'NO',
]); // prettier-ignore

/** The one rule deciding who is subject to SCA: the customer's address country is in the EEA. */
export function isScaRegulated(address: { country?: string } | undefined | null): boolean {
  return address?.country !== undefined && SCA_REGULATED_COUNTRIES.includes(address.country.toUpperCase());
}

const CUSTOMER_ID = typedIdPattern('Customer');
const EXTERNAL_ACCOUNT_ID = typedIdPattern('ExternalAccount');

export class ScaCustomerQuery {
  @ApiProperty({ description: 'The customer the SCA operation is for', example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(CUSTOMER_ID, 'a Customer id')
  customerId!: string;
}

export class EnrollScaFactorBody {
  @ApiProperty({ enum: SCA_ENROLLABLE_FACTORS, description: 'The factor to enroll (SMS_OTP is implicit on the verified phone)', example: 'TOTP' })
  @IsOneOf(SCA_ENROLLABLE_FACTORS)
  type!: ScaEnrollableFactor;
}

export class EnrollScaFactorRequest extends EnrollScaFactorBody {
  @ApiProperty({ description: "The customer (the route's customerId query parameter)", example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(CUSTOMER_ID, 'a Customer id')
  customerId!: string;
}

export class ConfirmScaFactorBody {
  @ApiProperty({ enum: SCA_ENROLLABLE_FACTORS, description: 'The factor being confirmed', example: 'TOTP' })
  @IsOneOf(SCA_ENROLLABLE_FACTORS)
  type!: ScaEnrollableFactor;

  @ApiPropertyOptional({ description: 'TOTP: the `secret` the enrollment start returned', example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' })
  @ValidateIf((request: ConfirmScaFactorRequest) => request.type === 'TOTP')
  @IsString()
  @MinLength(16)
  @MaxLength(128)
  secret?: string;

  @ApiPropertyOptional({ description: 'TOTP: the current code of the authenticator app (sandbox: 123456)', example: '123456' })
  @ValidateIf((request: ConfirmScaFactorRequest) => request.type === 'TOTP')
  @MatchesPattern(/^[0-9]{6}$/, 'six digits')
  code?: string;

  @ApiPropertyOptional({ description: 'PASSKEY: the origin the credential was produced against', example: 'https://app.example.com' })
  @ValidateIf((request: ConfirmScaFactorRequest) => request.type === 'PASSKEY')
  @IsString()
  @MaxLength(512)
  origin?: string;

  @ApiPropertyOptional({
    description: "PASSKEY: the WebAuthn credential (RegistrationResponseJSON) the device produced from the start's options",
    type: 'object',
    additionalProperties: true,
  })
  @ValidateIf((request: ConfirmScaFactorRequest) => request.type === 'PASSKEY')
  @IsObject()
  credential?: Record<string, unknown>;
}

export class ConfirmScaFactorRequest extends ConfirmScaFactorBody {
  @ApiProperty({ description: "The customer (the route's customerId query parameter)", example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(CUSTOMER_ID, 'a Customer id')
  customerId!: string;
}

export class DeleteScaFactorRequest extends ScaCustomerQuery {
  @ApiProperty({ description: "The factor's credentialId", example: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LU' })
  @IsString()
  @MaxLength(1024)
  credentialId!: string;
}

export class StartScaLoginBody {
  @ApiProperty({ enum: SCA_FACTORS, description: 'The factor to log in with', example: 'TOTP' })
  @IsOneOf(SCA_FACTORS)
  factor!: ScaFactor;
}

export class StartScaLoginRequest extends StartScaLoginBody {
  @ApiProperty({ description: "The customer (the route's customerId query parameter)", example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(CUSTOMER_ID, 'a Customer id')
  customerId!: string;
}

/** The proof of an SCA challenge (the reference's ScaAuthorization): a code, or a passkey assertion with its origin. */
export class ScaProofInput {
  @ApiPropertyOptional({ type: String, description: 'SMS_OTP / TOTP code (sandbox: 123456)', example: '123456', nullable: true })
  @ValidateIf((proof: ScaProofInput) => proof.passkeyAssertion === undefined || proof.passkeyAssertion === null)
  @MatchesPattern(/^[0-9]{6}$/, 'six digits')
  code?: string | null;

  @ApiPropertyOptional({
    description: 'PASSKEY: the WebAuthn assertion (credentialId, clientDataJson, authenticatorData, signature)',
    type: 'object',
    additionalProperties: true,
    nullable: true,
  })
  @IsOptional()
  @IsObject()
  passkeyAssertion?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: String, description: 'PASSKEY: the origin the assertion was produced against', example: 'https://app.example.com', nullable: true })
  @ValidateIf((proof: ScaProofInput) => proof.passkeyAssertion !== undefined && proof.passkeyAssertion !== null)
  @IsString()
  @MaxLength(512)
  origin?: string | null;

  @ApiPropertyOptional({ type: String, description: "The end user's IP address", example: '203.0.113.42', nullable: true })
  @IsOptional()
  @IsIP()
  endUserIpAddress?: string | null;
}

export class CompleteScaLoginBody extends ScaProofInput {
  @ApiProperty({ enum: SCA_FACTORS, description: 'The factor of the started login', example: 'TOTP' })
  @IsOneOf(SCA_FACTORS)
  factor!: ScaFactor;

  @ApiPropertyOptional({ type: String, description: 'SMS_OTP: the challengeId of the login start', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  challengeId?: string | null;
}

export class CompleteScaLoginRequest extends CompleteScaLoginBody {
  @ApiProperty({ description: "The customer (the route's customerId query parameter)", example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(CUSTOMER_ID, 'a Customer id')
  customerId!: string;
}

export class RecordSecurityEventBody {
  @ApiProperty({ enum: SECURITY_EVENT_TYPES, description: 'The event', example: 'FAILED_LOGIN_ATTEMPT' })
  @IsOneOf(SECURITY_EVENT_TYPES)
  eventType!: SecurityEventType;
}

export class RecordSecurityEventRequest extends RecordSecurityEventBody {
  @ApiProperty({ description: "The customer (the route's customerId query parameter)", example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(CUSTOMER_ID, 'a Customer id')
  customerId!: string;
}

export class StartTwoFactorResetBody {
  @ApiProperty({ enum: SCA_FACTORS, description: 'The lost factor', example: 'TOTP' })
  @IsOneOf(SCA_FACTORS)
  factor!: ScaFactor;
}

export class StartTwoFactorResetRequest extends StartTwoFactorResetBody {
  @ApiProperty({ description: "The customer (the route's customerId query parameter)", example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(CUSTOMER_ID, 'a Customer id')
  customerId!: string;
}

export class TwoFactorResetIdRequest extends ScaCustomerQuery {
  @ApiProperty({ description: 'The reset', example: 'TwoFactorReset:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(typedIdPattern('TwoFactorReset'), 'a TwoFactorReset id')
  resetId!: string;
}

export class ResetMobileInput {
  @ApiProperty({ description: 'Dialing code with its +', example: '+49' })
  @MatchesPattern(/^\+[0-9]{1,4}$/, '+ and 1 to 4 digits')
  countryCode!: string;

  @ApiProperty({ description: 'National number', example: '15123456789' })
  @MatchesPattern(/^[0-9]{4,14}$/, '4 to 14 digits')
  number!: string;
}

export class CompleteTwoFactorResetBody {
  @ApiPropertyOptional({ type: ResetMobileInput, description: 'SMS_OTP reset: the new mobile number' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ResetMobileInput)
  mobile?: ResetMobileInput;
}

export class CompleteTwoFactorResetRequest extends CompleteTwoFactorResetBody {
  @ApiProperty({ description: "The customer (the route's customerId query parameter)", example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(CUSTOMER_ID, 'a Customer id')
  customerId!: string;

  @ApiProperty({ description: 'The reset', example: 'TwoFactorReset:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(typedIdPattern('TwoFactorReset'), 'a TwoFactorReset id')
  resetId!: string;
}

export class SandboxLivenessBody {
  @ApiProperty({ enum: SANDBOX_LIVENESS_OUTCOMES, description: 'The liveness outcome to simulate', example: 'LIVENESS_PASSED' })
  @IsOneOf(SANDBOX_LIVENESS_OUTCOMES)
  outcome!: SandboxLivenessOutcome;
}

export class SandboxLivenessRequest extends SandboxLivenessBody {
  @ApiProperty({ description: "The customer (the route's customerId query parameter)", example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(CUSTOMER_ID, 'a Customer id')
  customerId!: string;

  @ApiProperty({ description: 'The reset', example: 'TwoFactorReset:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(typedIdPattern('TwoFactorReset'), 'a TwoFactorReset id')
  resetId!: string;
}

export class StartBeneficiaryTrustRequest {
  @ApiProperty({ description: 'The external account (beneficiary)', example: 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000002' })
  @MatchesPattern(EXTERNAL_ACCOUNT_ID, 'an ExternalAccount id')
  externalAccountId!: string;

  @ApiProperty({ description: 'true: trust; false: untrust' })
  @IsBoolean()
  trusted!: boolean;
}

export class ConfirmBeneficiaryTrustBody extends ScaProofInput {
  @ApiPropertyOptional({ type: String, description: "The start's scaChallenge.id", nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  challengeId?: string | null;
}

export class ConfirmBeneficiaryTrustRequest extends ConfirmBeneficiaryTrustBody {
  @ApiProperty({ description: 'The external account (beneficiary)', example: 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000002' })
  @MatchesPattern(EXTERNAL_ACCOUNT_ID, 'an ExternalAccount id')
  externalAccountId!: string;

  @ApiProperty({ description: 'true: trust; false: untrust' })
  @IsBoolean()
  trusted!: boolean;
}

export class BeneficiaryTrustQuery {
  @ApiProperty({ description: 'The external account', example: 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000002' })
  @MatchesPattern(EXTERNAL_ACCOUNT_ID, 'an ExternalAccount id')
  externalAccountId!: string;
}

/** What a money movement's challenge is bound to (dynamic linking): any change gives another hash. */
export class ScaBindingInput {
  @ApiProperty({ description: 'Amount in minor units, as a decimal string', example: '10000' })
  @MatchesPattern(/^[0-9]{1,30}$/, 'a decimal integer')
  amount!: string;

  @ApiProperty({ description: 'Currency code', example: 'USD' })
  @MatchesPattern(/^[A-Z0-9]{3,5}$/, 'a currency code')
  currency!: string;

  @ApiProperty({ description: 'The payee (account id or UMA address)', example: 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000002' })
  @IsString()
  @MaxLength(512)
  payee!: string;
}

export class IssueScaChallengeRequest extends ScaCustomerQuery {
  @ApiProperty({ description: 'What the challenge authorizes (a quote id)' })
  @IsString()
  @MaxLength(128)
  subjectId!: string;

  @ApiProperty({ enum: SCA_CHALLENGE_PURPOSES })
  @IsOneOf(SCA_CHALLENGE_PURPOSES)
  purpose!: ScaChallengePurpose;

  @ApiProperty({ type: ScaBindingInput })
  @ValidateNested()
  @Type(() => ScaBindingInput)
  binding!: ScaBindingInput;

  @ApiPropertyOptional({ enum: SCA_FACTORS, description: "The request's preferred factor (quotes' scaFactor), when available" })
  @IsOptional()
  @IsOneOf(SCA_FACTORS)
  preferredFactor?: ScaFactor;

  @ApiPropertyOptional({ description: 'The external account paid: no challenge when it is a trusted beneficiary' })
  @IsOptional()
  @MatchesPattern(EXTERNAL_ACCOUNT_ID, 'an ExternalAccount id')
  trustedPayeeCandidate?: string;
}

export class VerifyScaChallengeRequest extends ScaProofInput {
  @ApiProperty({ description: 'The customer', example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @MatchesPattern(CUSTOMER_ID, 'a Customer id')
  customerId!: string;

  @ApiProperty({ description: 'The challenge being answered' })
  @IsString()
  @MaxLength(128)
  challengeId!: string;

  @ApiProperty({ type: ScaBindingInput, description: 'What the operation is bound to now' })
  @ValidateNested()
  @Type(() => ScaBindingInput)
  binding!: ScaBindingInput;
}

export class ResendScaChallengeRequest extends ScaCustomerQuery {
  @ApiProperty({ description: 'The challenge whose code is sent again' })
  @IsString()
  @MaxLength(128)
  challengeId!: string;
}

export interface ScaFactorView {
  factor: ScaFactor;
  credentialId?: string;
  name?: string;
}

export interface ScaFactorList {
  factors: ScaFactorView[];
}

export type ScaEnrollmentStart =
  | { type: 'TOTP'; secret: string; secretBase32Encoded: string; totpUri: string }
  | { type: 'PASSKEY'; options: Record<string, unknown>; allowedOrigins: string[]; relyingPartyId: string };

export type ScaEnrollmentConfirm = { type: 'TOTP'; recoveryCodes: string[] } | { type: 'PASSKEY'; factor: ScaFactorView };

export interface ScaLoginStart {
  factor: ScaFactor;
  challengeId?: string | null;
  expiresAt?: string | null;
  passkeyOptions?: Record<string, unknown> | null;
  allowedOrigins?: string[] | null;
  relyingPartyId?: string | null;
}

export interface ScaLoginComplete {
  status: string;
  sessionExpiresAt?: string | null;
}

export interface SecurityState {
  eventType: SecurityEventType;
  suspended: boolean;
  lockedUntil?: string | null;
  failedAttempts: number;
}

export interface TwoFactorResetStart {
  resetId: string;
  livenessAccessToken?: string | null;
  verificationLink?: string | null;
  expiresAt?: string | null;
}

export interface TwoFactorResetStatus {
  status: TwoFactorResetStatusValue;
  factor: ScaFactor;
  enrollmentStatus?: 'PENDING' | 'COMPLETED' | null;
  expiresAt: string;
  completedAt?: string | null;
}

export interface ScaChallenge {
  id: string;
  expiresAt: string;
  factor: ScaFactor;
  availableFactors: ScaFactor[];
  purpose?: string | null;
  passkeyAssertionOptions?: Record<string, unknown> | null;
  passkeyAllowedOrigins?: string[] | null;
}

export interface BeneficiaryTrustStart {
  scaChallenge?: ScaChallenge;
}

export interface BeneficiaryTrustConfirm {
  trusted: boolean;
}

/** The answer to issuing a money movement's challenge: none when the payee is a trusted beneficiary. */
export interface ScaChallengeIssue {
  challenge?: ScaChallenge;
}

export const WALLET_AUTH_SCA_SUBJECTS = {
  listFactors: 'wallet-auth.sca-factor.list',
  enrollFactor: 'wallet-auth.sca-factor.enroll',
  confirmFactor: 'wallet-auth.sca-factor.confirm',
  deleteFactor: 'wallet-auth.sca-factor.delete',
  startLogin: 'wallet-auth.sca-login.start',
  completeLogin: 'wallet-auth.sca-login.complete',
  recordEvent: 'wallet-auth.sca-security-event.record',
  startReset: 'wallet-auth.sca-reset.start',
  getReset: 'wallet-auth.sca-reset.get',
  completeReset: 'wallet-auth.sca-reset.complete',
  simulateLiveness: 'wallet-auth.sca-reset.simulate-liveness',
  startTrust: 'wallet-auth.sca-trust.start',
  confirmTrust: 'wallet-auth.sca-trust.confirm',
  /** Whether an external account is a trusted beneficiary (external-accounts asks before deleting it). */
  getTrust: 'wallet-auth.sca-trust.get',
  /** A money movement's challenge (payments, at a regulated customer's quote execution). */
  issueChallenge: 'wallet-auth.sca-challenge.issue',
  verifyChallenge: 'wallet-auth.sca-challenge.verify',
  resendChallenge: 'wallet-auth.sca-challenge.resend',
} as const;

export interface WalletAuthScaContract {
  [WALLET_AUTH_SCA_SUBJECTS.listFactors]: { request: ScaCustomerQuery; reply: ScaFactorList };
  [WALLET_AUTH_SCA_SUBJECTS.enrollFactor]: { request: EnrollScaFactorRequest; reply: ScaEnrollmentStart };
  [WALLET_AUTH_SCA_SUBJECTS.confirmFactor]: { request: ConfirmScaFactorRequest; reply: ScaEnrollmentConfirm };
  [WALLET_AUTH_SCA_SUBJECTS.deleteFactor]: { request: DeleteScaFactorRequest; reply: Empty };
  [WALLET_AUTH_SCA_SUBJECTS.startLogin]: { request: StartScaLoginRequest; reply: ScaLoginStart };
  [WALLET_AUTH_SCA_SUBJECTS.completeLogin]: { request: CompleteScaLoginRequest; reply: ScaLoginComplete };
  [WALLET_AUTH_SCA_SUBJECTS.recordEvent]: { request: RecordSecurityEventRequest; reply: SecurityState };
  [WALLET_AUTH_SCA_SUBJECTS.startReset]: { request: StartTwoFactorResetRequest; reply: TwoFactorResetStart };
  [WALLET_AUTH_SCA_SUBJECTS.getReset]: { request: TwoFactorResetIdRequest; reply: TwoFactorResetStatus };
  [WALLET_AUTH_SCA_SUBJECTS.completeReset]: { request: CompleteTwoFactorResetRequest; reply: Empty };
  [WALLET_AUTH_SCA_SUBJECTS.simulateLiveness]: { request: SandboxLivenessRequest; reply: TwoFactorResetStatus };
  [WALLET_AUTH_SCA_SUBJECTS.startTrust]: { request: StartBeneficiaryTrustRequest; reply: BeneficiaryTrustStart };
  [WALLET_AUTH_SCA_SUBJECTS.confirmTrust]: { request: ConfirmBeneficiaryTrustRequest; reply: BeneficiaryTrustConfirm };
  [WALLET_AUTH_SCA_SUBJECTS.getTrust]: { request: BeneficiaryTrustQuery; reply: BeneficiaryTrustConfirm };
  [WALLET_AUTH_SCA_SUBJECTS.issueChallenge]: { request: IssueScaChallengeRequest; reply: ScaChallengeIssue };
  [WALLET_AUTH_SCA_SUBJECTS.verifyChallenge]: { request: VerifyScaChallengeRequest; reply: Empty };
  [WALLET_AUTH_SCA_SUBJECTS.resendChallenge]: { request: ResendScaChallengeRequest; reply: Empty };
}
