import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Page, Transaction, TRANSACTION_STATUSES, TRANSACTION_TYPES, TransactionEndpoint, TransactionStatus, TransactionType } from '@paykit/contracts';
import { PayerDataFieldDto } from '../../quotes/dto/receiver-lookup.response';
import { MoneyDto } from './internal-account.response';

export class TransactionEndpointDto implements TransactionEndpoint {
  @ApiProperty({ description: 'Internal or external account id', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
  @ApiProperty({ description: 'Currency code of the account', example: 'USD' }) currency!: string;
}

export class TransactionResponseDto implements Transaction {
  @ApiProperty({ description: 'Transaction id', example: 'Transaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ enum: TRANSACTION_TYPES, description: 'OUTGOING: transfer-out; INCOMING: transfer-in', example: 'OUTGOING' }) type!: TransactionType;
  @ApiProperty({
    enum: TRANSACTION_STATUSES,
    description: 'PENDING (accepted, funds held) -> PROCESSING (with the receiving bank) -> COMPLETED or FAILED (`failureReason`)',
    example: 'PENDING',
  })
  status!: TransactionStatus;
  @ApiPropertyOptional({ description: 'Customer owning the internal account; absent for platform accounts', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  customerId?: string;
  @ApiProperty({ type: TransactionEndpointDto }) source!: TransactionEndpointDto;
  @ApiProperty({ type: TransactionEndpointDto }) destination!: TransactionEndpointDto;
  @ApiProperty({ type: MoneyDto, description: 'Amount leaving the source' }) sentAmount!: MoneyDto;
  @ApiProperty({ type: MoneyDto, description: 'Amount arriving at the destination' }) receivedAmount!: MoneyDto;
  @ApiPropertyOptional({ example: 'Payout #4411' }) description?: string;
  @ApiPropertyOptional({
    description: 'Why the transaction FAILED: INSUFFICIENT_FUNDS, ACCOUNT_CLOSED_OR_INVALID, REJECTED_BY_BANK, TIMED_OUT',
    example: 'REJECTED_BY_BANK',
  })
  failureReason?: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
  @ApiPropertyOptional({ description: 'When the transaction reached COMPLETED or FAILED', example: '2025-10-13T12:00:01.000Z' }) settledAt?: string;
  @ApiPropertyOptional({ description: 'The quote a cross-currency payment executed', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) quoteId?: string;
  @ApiPropertyOptional({ description: 'When the platform confirmed delivering the receipt to its customer', example: '2025-10-13T12:05:00.000Z', format: 'date-time' })
  receiptDeliveryConfirmedAt?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'What the counterparty shared about itself (UMA payments)' })
  counterpartyInformation?: Record<string, unknown>;
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
