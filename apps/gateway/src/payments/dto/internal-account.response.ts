import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Currency,
  INTERNAL_ACCOUNT_STATUSES,
  INTERNAL_ACCOUNT_TYPES,
  InternalAccount,
  InternalAccountStatus,
  InternalAccountType,
  Money,
  Page,
  PAYMENT_ACCOUNT_TYPES,
  PaymentAccountInfo,
  PaymentAccountType,
  PaymentInstructions,
} from '@paykit/contracts';

export class CurrencyDto implements Currency {
  @ApiProperty({ description: 'ISO 4217 code, or the ticker for crypto', example: 'USD' }) code!: string;
  @ApiProperty({ description: 'Full name', example: 'US Dollar' }) name!: string;
  @ApiProperty({ description: 'Symbol', example: '$' }) symbol!: string;
  @ApiProperty({ description: 'Digits after the decimal point of the smallest unit', example: 2, minimum: 0 }) decimals!: number;
}

export class MoneyDto implements Money {
  @ApiProperty({ description: "Amount in the currency's smallest unit", type: 'integer', format: 'int64', example: 100000 }) amount!: number;
  @ApiProperty({ type: CurrencyDto }) currency!: CurrencyDto;
}

/** Where to send funds: the fields present depend on `accountType` (bank details for fiat, an address for crypto). */
export class PaymentAccountInfoDto implements PaymentAccountInfo {
  @ApiProperty({ enum: PAYMENT_ACCOUNT_TYPES, description: 'Which kind of account or wallet the details describe', example: 'USD_ACCOUNT' })
  accountType!: PaymentAccountType;
  @ApiPropertyOptional({ type: [String], description: 'Rails the details can be paid by', example: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] }) paymentRails?: string[];
  @ApiPropertyOptional({ description: 'The memo the payer must include so the funds reach this account', example: 'K7QH2M4XPR9D' }) reference?: string;
  @ApiPropertyOptional({ description: 'Bank account number', example: '483920175562' }) accountNumber?: string;
  @ApiPropertyOptional({ description: 'USD: ABA routing number', pattern: '^[0-9]{9}$', example: '021000021' }) routingNumber?: string;
  @ApiPropertyOptional({ description: 'Bank name', example: 'Sandbox Settlement Bank' }) bankName?: string;
  @ApiPropertyOptional({ enum: ['CHECKING', 'SAVINGS'], description: 'USD: account type', example: 'CHECKING' }) bankAccountType?: 'CHECKING' | 'SAVINGS';
  @ApiPropertyOptional({ description: "The bank's address", example: '1 Market St, San Francisco, CA' }) bankAddress?: string;
  @ApiPropertyOptional({ description: 'IBAN (EUR, DKK, AED)', example: 'DE89370400440532013000' }) iban?: string;
  @ApiPropertyOptional({ description: 'BIC / SWIFT code', example: 'SNDBDEFF' }) swiftCode?: string;
  @ApiPropertyOptional({ description: 'MXN: CLABE', pattern: '^[0-9]{18}$', example: '646180157000000004' }) clabeNumber?: string;
  @ApiPropertyOptional({ description: 'GBP: sort code', pattern: '^[0-9]{6}$', example: '040004' }) sortCode?: string;
  @ApiPropertyOptional({ description: 'CAD: institution number', example: '001' }) bankCode?: string;
  @ApiPropertyOptional({ description: 'CAD: transit number', example: '00011' }) branchCode?: string;
  @ApiPropertyOptional({ description: 'INR: UPI virtual payment address', example: 'k7qh2m4xpr9d@sandbox' }) vpa?: string;
  @ApiPropertyOptional({ description: 'INR: IFSC', example: 'SBIN0001234' }) ifsc?: string;
  @ApiPropertyOptional({ description: 'Mobile money: phone number (international format)', example: '+254712345678' }) phoneNumber?: string;
  @ApiPropertyOptional({ description: 'Mobile money: operator code', example: 'MPESA' }) provider?: string;
  @ApiPropertyOptional({ description: 'XOF/XAF: country of the mobile-money operator', example: 'SN' }) region?: string;
  @ApiPropertyOptional({ description: 'BRL: PIX copy-and-paste code', example: '00020126580014br.gov.bcb.pix...' }) qrCode?: string;
  @ApiPropertyOptional({ description: 'COP: page where the payer completes the payment', example: 'https://pay.sandbox.invalid/cop/K7QH2M4XPR9D' }) paymentUrl?: string;
  @ApiPropertyOptional({ description: 'Crypto: deposit address', example: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' }) address?: string;
  @ApiPropertyOptional({ description: 'Crypto: the token the address takes', example: 'USDC' }) assetType?: string;
  @ApiPropertyOptional({ description: 'Crypto: the network of the address', example: 'BITCOIN' }) network?: string;
}

export class PaymentInstructionsDto implements PaymentInstructions {
  @ApiPropertyOptional({ description: 'What the payer should know (e.g. include the reference)', example: 'Send funds with the reference in the memo.' })
  instructionsNotes?: string;
  @ApiPropertyOptional({ description: "True when the receiving account is the platform's own", example: false }) isPlatformAccount?: boolean;
  @ApiProperty({ type: PaymentAccountInfoDto, description: 'The account or wallet to send funds to' }) accountOrWalletInfo!: PaymentAccountInfoDto;
}

export class InternalAccountResponseDto implements InternalAccount {
  @ApiProperty({ description: 'Internal account id', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiPropertyOptional({ description: "Owner; absent for the platform's own accounts", example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  customerId?: string;
  @ApiProperty({ enum: INTERNAL_ACCOUNT_TYPES, example: 'INTERNAL_FIAT' }) type!: InternalAccountType;
  @ApiProperty({ enum: INTERNAL_ACCOUNT_STATUSES, example: 'ACTIVE' }) status!: InternalAccountStatus;
  @ApiProperty({ type: MoneyDto, description: 'Available balance: posted funds less pending holds' }) balance!: MoneyDto;
  @ApiProperty({ type: MoneyDto, description: 'Total balance: every posted fund, pending holds included' }) totalBalance!: MoneyDto;
  @ApiProperty({
    type: [PaymentInstructionsDto],
    description: 'How to fund the account from outside (bank details with a reference, or a deposit address); the same on every read',
  })
  fundingPaymentInstructions!: PaymentInstructionsDto[];
  @ApiProperty({ description: 'Embedded wallets: whether the wallet is private', example: false }) privateEnabled!: boolean;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class InternalAccountListResponseDto implements Page<InternalAccount> {
  @ApiProperty({ type: [InternalAccountResponseDto] }) data!: InternalAccountResponseDto[];
  @ApiProperty({ description: 'More pages follow', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
  @ApiProperty({ description: 'Accounts matching the filters, all pages', example: 1 }) totalCount!: number;
}

/** The public resource only: fields meant for other services (e.g. the wallet email) never leave the gateway. */
export function publicInternalAccount(account: InternalAccount): InternalAccount {
  return {
    id: account.id,
    ...(account.customerId !== undefined ? { customerId: account.customerId } : {}),
    type: account.type,
    status: account.status,
    balance: { amount: account.balance.amount, currency: { ...account.balance.currency } },
    totalBalance: { amount: account.totalBalance.amount, currency: { ...account.totalBalance.currency } },
    fundingPaymentInstructions: account.fundingPaymentInstructions.map((instructions) => ({
      ...(instructions.instructionsNotes !== undefined ? { instructionsNotes: instructions.instructionsNotes } : {}),
      ...(instructions.isPlatformAccount !== undefined ? { isPlatformAccount: instructions.isPlatformAccount } : {}),
      accountOrWalletInfo: { ...instructions.accountOrWalletInfo },
    })),
    privateEnabled: account.privateEnabled,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  };
}
