import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ACCOUNT_INFO_SCHEMA,
  AccountInfo,
  BENEFICIARY_VERIFICATION_STATUSES,
  BeneficiaryVerificationStatus,
  EXTERNAL_ACCOUNT_STATUSES,
  ExternalAccount,
  ExternalAccountPage,
  ExternalAccountStatus,
  ExternalAccountWithRouting,
} from '@paykit/contracts';

/** OpenAPI description of the ExternalAccount resource. */
export class ExternalAccountResponseDto implements ExternalAccount {
  @ApiProperty({ description: 'External account id', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiPropertyOptional({ description: 'Owning customer; absent for platform external accounts', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  customerId?: string;
  @ApiProperty({
    enum: EXTERNAL_ACCOUNT_STATUSES,
    description:
      'PENDING: name verification pending; ACTIVE: usable, the only status that can receive payments; UNDER_REVIEW: the beneficiary name did not match, ' +
      'update the account data to re-run review; INACTIVE: removed (kept as history).',
    example: 'ACTIVE',
  })
  status!: ExternalAccountStatus;
  @ApiProperty({ description: 'Currency of the destination account', example: 'USD' }) currency!: string;
  @ApiProperty({ description: "Platform's own id for the account", example: 'acct-ada-checking' }) platformAccountId!: string;
  @ApiProperty({
    ...ACCOUNT_INFO_SCHEMA,
    description:
      'Destination details as registered. GET of one account returns them in full; list responses mask accountNumber, iban and clabeNumber ' +
      'to their last 4 characters (the rest replaced by `*`).',
  })
  accountInfo!: AccountInfo;
  @ApiPropertyOptional({
    enum: BENEFICIARY_VERIFICATION_STATUSES,
    description: 'Beneficiary name verification result (absent for LN_WALLET, which has no beneficiary)',
    example: 'MATCHED',
  })
  beneficiaryVerificationStatus?: BeneficiaryVerificationStatus;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class ExternalAccountPageDto implements ExternalAccountPage {
  @ApiProperty({ type: [ExternalAccountResponseDto], description: 'Newest first; identifiers masked (see accountInfo)' }) data!: ExternalAccountResponseDto[];
  @ApiProperty({ description: 'More pages follow', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
  @ApiProperty({ description: 'Accounts matching the filters, all pages', example: 1 }) totalCount!: number;
}

/** The routing block is for other services only; HTTP never shows it. */
export function withoutRouting(account: ExternalAccountWithRouting): ExternalAccount {
  const { routing: _routing, ...resource } = account;
  return resource;
}
