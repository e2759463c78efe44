import { ScaChallengeDto } from '../../wallet-auth/dto/sca.response';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  PAYMENT_RAILS,
  PaymentRail,
  Quote,
  QUOTE_DESTINATION_TYPES,
  QUOTE_FAILURE_REASONS,
  QUOTE_SOURCE_TYPES,
  QUOTE_STATUSES,
  QuoteDestination,
  QuoteDestinationType,
  QuoteFailureReason,
  QuotePaymentInstructions,
  QuoteSource,
  QuoteSourceType,
  QuoteStatus,
} from '@paykit/contracts';
import { CurrencyDto } from '../../payments/dto/internal-account.response';

export class QuoteSourceDto implements QuoteSource {
  @ApiProperty({ enum: QUOTE_SOURCE_TYPES, example: 'ACCOUNT' }) sourceType!: QuoteSourceType;
  @ApiPropertyOptional({ description: 'ACCOUNT: the internal account that pays', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId?: string;
  @ApiPropertyOptional({ description: 'The customer the payment is made for', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) customerId?: string;
  @ApiPropertyOptional({ description: 'REALTIME_FUNDING: the currency the funds arrive in', example: 'USD' }) currency?: string;
  @ApiPropertyOptional({ description: 'REALTIME_FUNDING in crypto: the network', example: 'SOLANA' }) cryptoNetwork?: string;
}

export class QuoteDestinationDto implements QuoteDestination {
  @ApiProperty({ enum: QUOTE_DESTINATION_TYPES, example: 'ACCOUNT' }) destinationType!: QuoteDestinationType;
  @ApiPropertyOptional({ description: 'ACCOUNT: the internal or external account paid', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId?: string;
  @ApiPropertyOptional({ enum: PAYMENT_RAILS, description: 'The rail the payout uses', example: 'SPEI' }) paymentRail?: PaymentRail;
  @ApiPropertyOptional({ description: 'UMA_ADDRESS: the receiver', example: '$success.mxn@sandbox.uma.money' }) umaAddress?: string;
  @ApiPropertyOptional({ description: 'UMA_ADDRESS: the currency the receiver gets', example: 'MXN' }) currency?: string;
}

export class PaymentAccountOrWalletInfoDto {
  @ApiProperty({ description: 'The kind of account to pay (its bank or wallet fields sit beside it)', example: 'USD_ACCOUNT' }) accountType!: string;
  @ApiPropertyOptional({ description: 'The reference the payment must carry', example: 'QT-1A2B3C4D5E6F' }) reference?: string;
  @ApiPropertyOptional({ description: 'The currency to send', example: 'USD' }) currency?: string;
  @ApiPropertyOptional({
    description:
      'EMBEDDED_WALLET: the payload a session key of the wallet stamps, byte for byte; the stamp, sent as `Service-Wallet-Signature` on `POST /quotes/{quoteId}/execute`, executes the quote in one call',
    example: '{"type":"SIGNED_REQUEST","requestId":"Request:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69","operation":"QUOTE_EXECUTE"}',
  })
  payloadToSign?: string;
  [field: string]: unknown;
}

export class QuotePaymentInstructionsDto implements QuotePaymentInstructions {
  @ApiPropertyOptional({ description: 'How to use the instructions', example: 'Send exactly the total sending amount with the reference' }) instructionsNotes?: string;
  @ApiPropertyOptional({ description: "Whether the account is the platform's own", example: false }) isPlatformAccount?: boolean;
  @ApiProperty({
    type: PaymentAccountOrWalletInfoDto,
    description:
      'Where to send the funds: `accountType` and that type’s bank or wallet fields, with the `reference` to quote; for an EMBEDDED_WALLET source, the `payloadToSign` of its one-call execution',
  })
  accountOrWalletInfo!: PaymentAccountOrWalletInfoDto;
}

export class QuoteRateDetailsDto {
  @ApiProperty({ description: 'Counterparty multiplier (receiving units per sending unit)', example: 17.25 }) counterpartyMultiplier!: number;
  @ApiProperty({ description: "Counterparty's fixed fee, smallest unit of the sending currency", example: 0 }) counterpartyFixedFee!: number;
  @ApiProperty({ description: "The service's multiplier (receiving units per sending unit)", example: 17.25 }) serviceApiMultiplier!: number;
  @ApiProperty({ description: "The service's fixed fee, smallest unit of the sending currency", example: 100 }) serviceApiFixedFee!: number;
  @ApiProperty({ description: "The service's variable fee rate (fraction of the sending amount)", example: 0.005 }) serviceApiVariableFeeRate!: number;
  @ApiProperty({ description: "The service's variable fee, smallest unit of the sending currency", example: 50 }) serviceApiVariableFeeAmount!: number;
}

export class QuoteResponseDto implements Quote {
  @ApiProperty({ description: 'Quote id', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({
    enum: QUOTE_STATUSES,
    description: 'PENDING (priced, rate locked until expiresAt) -> PROCESSING (executing) -> COMPLETED or FAILED; EXPIRED when not executed in time',
    example: 'PENDING',
  })
  status!: QuoteStatus;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z', format: 'date-time' }) createdAt!: string;
  @ApiProperty({ description: 'The locked rate and fees hold until then', example: '2025-10-13T12:05:00.000Z', format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ type: QuoteSourceDto }) source!: QuoteSourceDto;
  @ApiProperty({ type: QuoteDestinationDto }) destination!: QuoteDestinationDto;
  @ApiProperty({ type: CurrencyDto }) sendingCurrency!: CurrencyDto;
  @ApiProperty({ type: CurrencyDto }) receivingCurrency!: CurrencyDto;
  @ApiProperty({ description: 'What leaves the source, fees included, smallest unit of the sending currency', example: 10000, minimum: 0 })
  totalSendingAmount!: number;
  @ApiProperty({ description: 'What the destination gets, smallest unit of the receiving currency', example: 168533, minimum: 0 })
  totalReceivingAmount!: number;
  @ApiProperty({ description: 'Sending currency units per receiving currency unit', example: 0.057971014, minimum: 0 }) exchangeRate!: number;
  @ApiProperty({ description: 'Every fee, smallest unit of the sending currency', example: 150, minimum: 0 }) feesIncluded!: number;
  @ApiProperty({ description: "The platform's part of feesIncluded", example: 0, minimum: 0 }) platformFeesIncluded!: number;
  @ApiPropertyOptional({
    type: [QuotePaymentInstructionsDto],
    description: 'While PENDING. REALTIME_FUNDING: where to send the funds; EMBEDDED_WALLET source: what the wallet signs to execute it',
  })
  paymentInstructions?: QuotePaymentInstructionsDto[];
  @ApiProperty({ description: "The transaction the quote's execution creates", example: 'Transaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) transactionId!: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'What the receiving side shared about the receiver' }) counterpartyInformation?: Record<
    string,
    unknown
  >;
  @ApiPropertyOptional({ type: QuoteRateDetailsDto }) rateDetails?: QuoteRateDetailsDto;
  @ApiPropertyOptional({ example: 'Invoice 1234' }) description?: string;
  @ApiPropertyOptional({ enum: QUOTE_FAILURE_REASONS, description: 'Why the payment FAILED', example: 'QUOTE_EXECUTION_FAILED' }) failureReason?: QuoteFailureReason;
  @ApiPropertyOptional({
    type: ScaChallengeDto,
    description: 'While PENDING_AUTHORIZATION (SCA-regulated customers): the challenge to authorize now with POST /quotes/{quoteId}/authorize',
  })
  scaChallenge?: ScaChallengeDto;
}
