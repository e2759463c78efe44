import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  OnChainTransaction,
  Page,
  Transaction,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  TransactionEndpoint,
  TransactionStatus,
  TransactionType,
  WALLET_NETWORKS,
} from '@paykit/contracts';
import { MoneyDto } from './internal-account.response';

export class OnChainTransactionDto implements OnChainTransaction {
  @ApiProperty({
    description: 'Hash of the on-chain transfer (sandbox: generated)',
    example: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
  })
  transactionHash!: string;
  @ApiProperty({ enum: WALLET_NETWORKS, description: 'The blockchain network the transfer settles on', example: 'SOLANA' }) network!: string;
}

export class TransactionEndpointDto implements TransactionEndpoint {
  @ApiProperty({ description: 'Internal or external account id', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
  @ApiProperty({ description: 'Currency code of the account', example: 'USD' }) currency!: string;
  @ApiPropertyOptional({ type: OnChainTransactionDto, description: 'Wallet destinations: the network and hash of the on-chain transfer' })
  onChainTransaction?: OnChainTransactionDto;
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
}

export class TransactionListResponseDto implements Page<Transaction> {
  @ApiProperty({ type: [TransactionResponseDto] }) data!: TransactionResponseDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
}
