import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import {
  INCOMING_FAILURE_REASONS,
  IncomingFailureReason,
  OUTGOING_FAILURE_REASONS,
  OnChainTransaction,
  OutgoingFailureReason,
  Page,
  PAYMENT_RAILS,
  PaymentRail,
  PURPOSES_OF_PAYMENT,
  PurposeOfPayment,
  RAIL_SELECTION_MODES,
  RailSelectionMode,
  REFUND_REASONS,
  REFUND_STATUSES,
  RefundReason,
  RefundStatus,
  Transaction,
  TransactionRailDetails,
  TransactionRefund,
  TRANSACTION_DIRECTIONS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  TransactionDestination,
  TransactionDirection,
  TransactionSource,
  TransactionStatus,
  TransactionType,
  WALLET_NETWORKS,
} from '@paykit/contracts';
import { PayerDataFieldDto } from '../../quotes/dto/receiver-lookup.response';
import { MoneyDto } from './internal-account.response';

const FAILURE_REASONS = [...new Set<string>([...OUTGOING_FAILURE_REASONS, ...INCOMING_FAILURE_REASONS])];

export class TransactionSourceDto implements TransactionSource {
  @ApiProperty({ enum: ['ACCOUNT'], description: 'The funds leave an account (internal or external)', example: 'ACCOUNT' }) sourceType!: 'ACCOUNT';
  @ApiProperty({ description: 'Internal or external account id', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
  @ApiProperty({ description: 'Currency code of the account', example: 'USD' }) currency!: string;
}

export class TransactionRefundDto implements TransactionRefund {
  @ApiProperty({ description: 'The unique reference ID of the refund', example: 'REFUND-3C4B5A690F1C' }) reference!: string;
  @ApiProperty({ description: 'When the refund was initiated', format: 'date-time', example: '2025-10-13T12:00:02.000Z' }) initiatedAt!: string;
  @ApiPropertyOptional({ description: 'When the refund settled (COMPLETED or FAILED)', format: 'date-time', example: '2025-10-13T12:00:03.000Z' }) settledAt?: string;
  @ApiProperty({ enum: REFUND_STATUSES, description: 'Current status of the refund', example: 'COMPLETED' }) status!: RefundStatus;
  @ApiProperty({
    enum: REFUND_REASONS,
    description: 'Why the refund occurred: TRANSACTION_FAILED (the payment failed or was returned), USER_CANCELLATION (cancelled), TIMEOUT',
    example: 'TRANSACTION_FAILED',
  })
  reason!: RefundReason;
}

export class OnChainTransactionDto implements OnChainTransaction {
  @ApiProperty({ description: 'Hash of the on-chain transfer (sandbox: generated)', example: '9f2c4e7a1b3d5f6081a2c3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f607182' })
  transactionHash!: string;
  @ApiProperty({ enum: WALLET_NETWORKS, description: 'The blockchain network the transfer settles on', example: 'SOLANA' }) network!: string;
}

export class UmaAddressTransactionSourceDto implements TransactionSource {
  @ApiProperty({ enum: ['UMA_ADDRESS'], description: 'A UMA counterparty pays', example: 'UMA_ADDRESS' }) sourceType!: 'UMA_ADDRESS';
  @ApiProperty({ description: 'The paying UMA address', example: '$success.usd@sandbox.uma.money' }) umaAddress!: string;
  @ApiProperty({ description: 'Currency code of the funds', example: 'USD' }) currency!: string;
}

export class TransactionRailDetailsDto implements TransactionRailDetails {
  @ApiProperty({ enum: PAYMENT_RAILS, description: 'The rail the payout was sent over', example: 'ACH' }) paymentRail!: PaymentRail;
  @ApiProperty({ enum: ['RETURNED'], description: 'Status of the transfer on its rail: RETURNED, the receiving bank sent it back', example: 'RETURNED' })
  status!: 'RETURNED';
  @ApiProperty({ description: 'When the receiving bank returned the transfer', format: 'date-time', example: '2025-10-14T09:00:00.000Z' }) returnedAt!: string;
}

export class TransactionDestinationDto implements TransactionDestination {
  @ApiProperty({ enum: ['ACCOUNT'], description: 'The funds arrive in an account (internal or external)', example: 'ACCOUNT' }) destinationType!: 'ACCOUNT';
  @ApiProperty({ description: 'Internal or external account id', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
  @ApiProperty({ description: 'Currency code of the account', example: 'USD' }) currency!: string;
  @ApiPropertyOptional({ type: OnChainTransactionDto, description: 'Wallet destinations: the network and hash of the on-chain transfer' })
  onChainTransaction?: OnChainTransactionDto;
  @ApiPropertyOptional({
    type: TransactionRailDetailsDto,
    description: 'A payout the receiving bank returned (failureReason PAYOUT_RETURNED): its rail transfer, status RETURNED and returnedAt',
  })
  railDetails?: TransactionRailDetailsDto;
}

export class UmaAddressTransactionDestinationDto implements TransactionDestination {
  @ApiProperty({ enum: ['UMA_ADDRESS'], description: 'A UMA counterparty is paid', example: 'UMA_ADDRESS' }) destinationType!: 'UMA_ADDRESS';
  @ApiProperty({ description: 'The receiving UMA address', example: '$success.mxn@sandbox.uma.money' }) umaAddress!: string;
  @ApiProperty({ description: 'Currency code of the funds', example: 'MXN' }) currency!: string;
}

/** A payment (INCOMING or OUTGOING) between an internal account and an account or UMA counterparty, as every transaction route and payment webhook returns it. */
@ApiExtraModels(TransactionSourceDto, UmaAddressTransactionSourceDto, TransactionDestinationDto, UmaAddressTransactionDestinationDto)
export class TransactionResponseDto implements Transaction {
  @ApiProperty({ description: 'Transaction id', example: 'Transaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ enum: TRANSACTION_TYPES, description: 'OUTGOING: transfer-out; INCOMING: transfer-in', example: 'OUTGOING' }) type!: TransactionType;
  @ApiProperty({
    enum: TRANSACTION_STATUSES,
    description: 'PENDING (accepted, funds held) -> PROCESSING (with the receiving bank) -> COMPLETED or FAILED (`failureReason`)',
    example: 'PENDING',
  })
  status!: TransactionStatus;
  @ApiProperty({
    enum: TRANSACTION_DIRECTIONS,
    description: "DEBIT: funds leave the customer's internal account (OUTGOING); CREDIT: funds arrive in it (INCOMING)",
    example: 'DEBIT',
  })
  direction!: TransactionDirection;
  @ApiProperty({
    description: "Customer owning the internal account; for the platform's own accounts, the platform's id",
    example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  })
  customerId!: string;
  @ApiProperty({ description: "The platform's own id of that customer; for the platform's own accounts, the platform's id", example: 'user-4411' })
  platformCustomerId!: string;
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(TransactionSourceDto) }, { $ref: getSchemaPath(UmaAddressTransactionSourceDto) }],
    discriminator: { propertyName: 'sourceType' },
    description: 'Where the funds come from: an account, or a UMA counterparty',
  })
  source!: TransactionSourceDto | UmaAddressTransactionSourceDto;
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(TransactionDestinationDto) }, { $ref: getSchemaPath(UmaAddressTransactionDestinationDto) }],
    discriminator: { propertyName: 'destinationType' },
    description: 'Where the funds go: an account, or a UMA counterparty',
  })
  destination!: TransactionDestinationDto | UmaAddressTransactionDestinationDto;
  @ApiProperty({ type: MoneyDto, description: 'Amount leaving the source' }) sentAmount!: MoneyDto;
  @ApiProperty({ type: MoneyDto, description: 'Amount arriving at the destination' }) receivedAmount!: MoneyDto;
  @ApiPropertyOptional({
    description: 'Cross-currency payments: the fees of the quote, in the smallest unit of the sent currency',
    example: 150,
    minimum: 0,
    format: 'int64',
  })
  fees?: number;
  @ApiPropertyOptional({
    description: 'The portion of `fees` collected by the platform (its configured fee or the quote override); 0 when none applies. Already included in `fees`',
    example: 25,
    minimum: 0,
    format: 'int64',
  })
  platformFees?: number;
  @ApiPropertyOptional({ enum: PAYMENT_RAILS, description: 'OUTGOING: the rail the payout uses', example: 'ACH' }) paymentRail?: PaymentRail;
  @ApiPropertyOptional({ enum: RAIL_SELECTION_MODES, description: 'OUTGOING: MANUAL when the request named the rail, AUTO when the service chose it', example: 'MANUAL' })
  railSelectionMode?: RailSelectionMode;
  @ApiPropertyOptional({ description: 'OUTGOING: the remittance information sent with the payment', maxLength: 80, example: 'Invoice 12345' }) remittanceInformation?: string;
  @ApiPropertyOptional({ enum: PURPOSES_OF_PAYMENT, description: 'OUTGOING: what the payment is for', example: 'GOODS_OR_SERVICES' }) purposeOfPayment?: PurposeOfPayment;
  @ApiPropertyOptional({ example: 'Payout #4411' }) description?: string;
  @ApiPropertyOptional({
    enum: FAILURE_REASONS,
    description:
      'Why the transaction FAILED. OUTGOING: LIMIT_EXCEEDED (funds refused by the rail), ACCOUNT_INVALID (closed or invalid account), ACCOUNT_CANNOT_RECEIVE (rejected by the bank), PAYOUT_RETURNED (came back after processing); INCOMING: COLLECTION_FAILED',
    example: 'ACCOUNT_CANNOT_RECEIVE',
  })
  failureReason?: OutgoingFailureReason | IncomingFailureReason;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
  @ApiPropertyOptional({ description: 'When the transaction reached COMPLETED or FAILED', example: '2025-10-13T12:00:01.000Z' }) settledAt?: string;
  @ApiPropertyOptional({ description: 'The quote a cross-currency payment executed', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) quoteId?: string;
  @ApiPropertyOptional({ description: 'When the platform confirmed delivering the receipt to its customer', example: '2025-10-13T12:05:00.000Z', format: 'date-time' })
  receiptDeliveryConfirmedAt?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'What the counterparty shared about itself (UMA payments)' })
  counterpartyInformation?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: TransactionRefundDto,
    description:
      "The refund of a payment that failed, was returned or was cancelled after its money moved, tracked apart from `status` (webhooks `<TYPE>_PAYMENT.REFUND_<STATUS>`). A prefunded payment's refund credits the source internal account",
  })
  refund?: TransactionRefundDto;
  @ApiPropertyOptional({
    type: [PayerDataFieldDto],
    description: 'INCOMING_PAYMENT.PENDING webhooks only: receiver data the sender asks for, to give as receiverCustomerInfo when approving',
  })
  requestedReceiverCustomerInfoFields?: PayerDataFieldDto[];
}

export class TransactionListResponseDto implements Page<Transaction> {
  @ApiProperty({ type: [TransactionResponseDto] }) data!: TransactionResponseDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
}
