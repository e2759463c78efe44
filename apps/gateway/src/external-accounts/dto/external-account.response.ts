import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ACCOUNT_INFO_RESPONSE_SCHEMA,
  AccountInfoWithRails,
  ExternalAccountWarning,
  OWNERSHIP_TYPES,
  OWNERSHIP_VERIFICATION_METHODS,
  OwnershipChallenge,
  OwnershipType,
  OwnershipVerificationMethod,
  BENEFICIARY_VERIFICATION_STATUSES,
  BeneficiaryVerificationStatus,
  EXTERNAL_ACCOUNT_STATUSES,
  ExternalAccount,
  ExternalAccountPage,
  ExternalAccountStatus,
  ExternalAccountWithRouting,
} from '@paykit/contracts';

export class ExternalAccountWarningDto implements ExternalAccountWarning {
  @ApiProperty({ description: 'Dot path of the field', example: 'accountInfo.routingNumber' }) field!: string;
  @ApiProperty({ description: 'What the check found', example: 'accountInfo.routingNumber fails the ABA check digit: check it before sending money' }) message!: string;
}

/** OpenAPI description of the ExternalAccount resource. */
export class ExternalAccountResponseDto implements ExternalAccount {
  @ApiProperty({ description: 'External account id', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiPropertyOptional({ description: 'Owning customer; absent for platform external accounts', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  customerId?: string;
  @ApiProperty({
    enum: EXTERNAL_ACCOUNT_STATUSES,
    description:
      'PENDING: name verification pending; ACTIVE: usable, the only status that can receive payments; PENDING_OWNERSHIP_VERIFICATION: a first-party ' +
      'self-custody wallet whose ownership is to be proven (challenge, verify); UNVERIFIED: the last ownership proof failed (start a new challenge); ' +
      'UNDER_REVIEW: the beneficiary name did not match, update the account data to re-run review; INACTIVE: removed (kept as history).',
    example: 'ACTIVE',
  })
  status!: ExternalAccountStatus;
  @ApiProperty({ description: 'Currency of the destination account', example: 'USD' }) currency!: string;
  @ApiPropertyOptional({ description: "Platform's own id for the account, when given", example: 'acct-ada-checking' }) platformAccountId?: string;
  @ApiPropertyOptional({ enum: OWNERSHIP_TYPES, description: "Whether the account is the owner's own (FIRST_PARTY) or someone else's", example: 'FIRST_PARTY' })
  ownershipType?: OwnershipType;
  @ApiPropertyOptional({ description: "Whether this account receives the customer's UMA payments by default", example: false }) defaultUmaDepositAccount?: boolean;
  @ApiProperty({
    ...ACCOUNT_INFO_RESPONSE_SCHEMA,
    description: 'Destination details as registered, with `paymentRails` (bank and mobile-money types), in full (in the formats their request takes).',
  })
  accountInfo!: AccountInfoWithRails;
  @ApiPropertyOptional({
    enum: BENEFICIARY_VERIFICATION_STATUSES,
    description: 'Beneficiary name verification result (absent for LN_WALLET, which has no beneficiary)',
    example: 'MATCHED',
  })
  beneficiaryVerificationStatus?: BeneficiaryVerificationStatus;
  @ApiPropertyOptional({
    type: () => [ExternalAccountWarningDto],
    description: 'Checks stricter than required that the data fails (check digits, a bank outside the discovery list): the account is registered all the same',
  })
  warnings?: ExternalAccountWarningDto[];
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class ExternalAccountPageDto implements ExternalAccountPage {
  @ApiProperty({ type: [ExternalAccountResponseDto], description: 'Newest first' }) data!: ExternalAccountResponseDto[];
  @ApiProperty({ description: 'More pages follow', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
  @ApiProperty({ description: 'Accounts matching the filters, all pages', example: 1 }) totalCount!: number;
}

/** The routing block is for other services only; HTTP never shows it. */
export function withoutRouting(account: ExternalAccountWithRouting): ExternalAccount {
  const { routing: _routing, ...resource } = account;
  return resource;
}

/** An ownership challenge: WALLET_SIGNATURE carries messageToSign, LIVENESS a verificationLink. */
export class OwnershipChallengeDto implements OwnershipChallenge {
  @ApiProperty({ enum: OWNERSHIP_VERIFICATION_METHODS, example: 'WALLET_SIGNATURE' }) method!: OwnershipVerificationMethod;
  @ApiPropertyOptional({ description: 'WALLET_SIGNATURE: the exact message the wallet signs', example: 'I verify that I control the wallet 0xabc... Nonce: 6f1c...' })
  messageToSign?: string;
  @ApiPropertyOptional({ format: 'uri', description: 'LIVENESS: the hosted check to show the owner', example: 'https://liveness.sandbox.invalid/session/6f1c...' })
  verificationLink?: string;
  @ApiProperty({ format: 'date-time', description: 'After this, start a new challenge', example: '2025-10-13T12:15:00.000Z' }) expiresAt!: string;
}
