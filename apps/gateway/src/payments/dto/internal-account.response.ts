import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Currency, INTERNAL_ACCOUNT_STATUSES, INTERNAL_ACCOUNT_TYPES, InternalAccount, InternalAccountStatus, InternalAccountType, Money, Page } from '@paykit/contracts';

export class CurrencyDto implements Currency {
  @ApiProperty({ description: 'ISO 4217 code, or the ticker for crypto', example: 'USD' }) code!: string;
  @ApiProperty({ description: 'Full name', example: 'US Dollar' }) name!: string;
  @ApiProperty({ description: 'Symbol', example: '$' }) symbol!: string;
  @ApiProperty({ description: 'Digits after the decimal point of the smallest unit', example: 2, minimum: 0 }) decimals!: number;
}

export class MoneyDto implements Money {
  @ApiProperty({ description: "Amount in the currency's smallest unit", example: 100000 }) amount!: number;
  @ApiProperty({ type: CurrencyDto }) currency!: CurrencyDto;
}

export class InternalAccountResponseDto implements InternalAccount {
  @ApiProperty({ description: 'Internal account id', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiPropertyOptional({ description: "Owner; absent for the platform's own accounts", example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  customerId?: string;
  @ApiProperty({ enum: INTERNAL_ACCOUNT_TYPES, example: 'INTERNAL_FIAT' }) type!: InternalAccountType;
  @ApiProperty({ enum: INTERNAL_ACCOUNT_STATUSES, example: 'ACTIVE' }) status!: InternalAccountStatus;
  @ApiProperty({ type: MoneyDto, description: 'Available balance: posted funds less pending holds' }) balance!: MoneyDto;
  @ApiProperty({ description: 'Embedded wallets: whether the wallet is private', example: false }) privateEnabled!: boolean;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class InternalAccountListResponseDto implements Page<InternalAccount> {
  @ApiProperty({ type: [InternalAccountResponseDto] }) data!: InternalAccountResponseDto[];
  @ApiProperty({ description: 'More pages follow', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
}

/** The public resource only: fields meant for other services (e.g. the wallet email) never leave the gateway. */
export function publicInternalAccount(account: InternalAccount): InternalAccount {
  return {
    id: account.id,
    ...(account.customerId !== undefined ? { customerId: account.customerId } : {}),
    type: account.type,
    status: account.status,
    balance: { amount: account.balance.amount, currency: { ...account.balance.currency } },
    privateEnabled: account.privateEnabled,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  };
}
