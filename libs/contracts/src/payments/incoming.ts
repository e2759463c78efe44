import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsPositiveMinorAmount, MatchesPattern } from '@paykit/validation';
import { IsBoolean, IsISO8601, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { Transaction } from './replies';

// Incoming UMA payments, the platform's decisions on transactions, receipts and cancellation.
// Wire values (subjects) are frozen.

const CURRENCY_CODE = /^[A-Z0-9]{3,8}$/;

/** Body of `POST /sandbox/uma/receive`. */
export class SandboxUmaReceiveRequest {
  @ApiProperty({ description: 'The sandbox UMA counterparty paying', example: '$success.usd@sandbox.uma.money' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  senderUmaAddress!: string;

  @ApiPropertyOptional({ description: "The receiving customer's UMA address (or give customerId)", example: '$ada@platform.example' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  receiverUmaAddress?: string;

  @ApiPropertyOptional({ description: 'The receiving customer (or give receiverUmaAddress)', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  customerId?: string;

  @ApiProperty({ description: 'The currency the customer receives', example: 'USD' })
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  receivingCurrencyCode!: string;

  @ApiProperty({ description: 'The amount received, smallest unit of the receiving currency; greater than 0', example: 5000 })
  @IsPositiveMinorAmount()
  receivingCurrencyAmount!: number;
}

/** Body of `POST /transactions/{transactionId}/approve`. */
export class ApprovePaymentRequest {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The receiver data the payment asked for (the PENDING webhook lists it)' })
  @IsOptional()
  @IsObject()
  receiverCustomerInfo?: Record<string, unknown>;
}

/** Body of `POST /transactions/{transactionId}/reject` and `/cancel`. */
export class ReasonRequest {
  @ApiPropertyOptional({ description: 'Why, kept with the transaction', example: 'Receiver not recognised' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

/** Body of `POST /transactions/{transactionId}/confirm`. */
export class ConfirmReceiptDeliveryRequest {
  @ApiPropertyOptional({ description: 'When the receipt was delivered (default: now)', example: '2025-10-13T12:05:00Z', format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  receiptDeliveryConfirmedAt?: string;
}

export class TransactionRef {
  @ApiProperty({ description: 'Transaction id', example: 'Transaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  transactionId!: string;
}

export class ApprovePaymentMessage extends TransactionRef {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  receiverCustomerInfo?: Record<string, unknown>;
}

export class ReasonMessage extends TransactionRef {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

export class ConfirmReceiptDeliveryMessage extends TransactionRef {
  @ApiPropertyOptional()
  @IsOptional()
  @IsISO8601({ strict: true })
  receiptDeliveryConfirmedAt?: string;
}

/**
 * The platform answered an `INCOMING_PAYMENT.PENDING` webhook with a decision (the webhooks
 * service tells payments): 200 approves, with the receiver data of its JSON body; 403 rejects.
 */
export class WebhookDecisionMessage extends TransactionRef {
  @ApiProperty({ description: 'true: the answer was 200 (approve); false: 403 (reject)' })
  @IsBoolean()
  approved!: boolean;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  receiverCustomerInfo?: Record<string, unknown>;
}

export interface WebhookDecisionOutcome {
  /** False when the payment no longer waited for a decision (decided, timed out, unknown). */
  decided: boolean;
}

export const INCOMING_SUBJECTS = {
  sandboxUmaReceive: 'payments.incoming-payment.sandbox-receive',
  approveTransaction: 'payments.transaction.approve',
  rejectTransaction: 'payments.transaction.reject',
  confirmTransaction: 'payments.transaction.confirm',
  cancelTransaction: 'payments.transaction.cancel',
  webhookDecision: 'payments.incoming-payment.webhook-decision',
} as const;

export interface IncomingContract {
  [INCOMING_SUBJECTS.sandboxUmaReceive]: { request: SandboxUmaReceiveRequest; reply: Transaction };
  [INCOMING_SUBJECTS.approveTransaction]: { request: ApprovePaymentMessage; reply: Transaction };
  [INCOMING_SUBJECTS.rejectTransaction]: { request: ReasonMessage; reply: Transaction };
  [INCOMING_SUBJECTS.confirmTransaction]: { request: ConfirmReceiptDeliveryMessage; reply: Transaction };
  [INCOMING_SUBJECTS.cancelTransaction]: { request: ReasonMessage; reply: Transaction };
  [INCOMING_SUBJECTS.webhookDecision]: { request: WebhookDecisionMessage; reply: WebhookDecisionOutcome };
}
