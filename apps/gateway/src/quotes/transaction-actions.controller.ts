import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApprovePaymentRequest,
  CallerContext,
  ConfirmReceiptDeliveryRequest,
  INCOMING_SUBJECTS,
  QUOTES_SUBJECTS,
  ReasonRequest,
  SandboxSendRequest,
  SandboxUmaReceiveRequest,
  Transaction,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { TransactionResponseDto } from '../payments/dto/transaction.response';

const TRANSACTION_ID = { name: 'transactionId', example: 'Transaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' };

@ApiTags('Transactions')
@ApiBasicAuth('BasicAuth')
@Controller('transactions')
export class TransactionActionsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post(':transactionId/approve')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Approve a payment waiting for the platform',
    description:
      'An incoming payment stays PENDING until the platform approves it (the receiving account is credited and it completes, `INCOMING_PAYMENT.COMPLETED`) ' +
      'or rejects it, before its deadline (INCOMING_PAYMENT_APPROVAL_WINDOW_SECONDS, 5 minutes by default) after which it fails with PAYMENT_APPROVAL_TIMED_OUT. ' +
      'A payment that does not wait for a decision answers 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL.',
  })
  @ApiParam(TRANSACTION_ID)
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors(400, 401, 404, 409)
  approve(@Param('transactionId') transactionId: string, @Body() body: ApprovePaymentRequest, @Caller() caller: CallerContext): Promise<Transaction> {
    return this.services.request(
      INCOMING_SUBJECTS.approveTransaction,
      { transactionId, ...(body.receiverCustomerInfo !== undefined ? { receiverCustomerInfo: body.receiverCustomerInfo } : {}) },
      caller,
    );
  }

  @Post(':transactionId/reject')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reject a payment waiting for the platform',
    description: 'The payment fails (`INCOMING_PAYMENT.FAILED`, failureReason COMPLIANCE_REJECTED) and nothing moves.',
  })
  @ApiParam(TRANSACTION_ID)
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors(400, 401, 404, 409)
  reject(@Param('transactionId') transactionId: string, @Body() body: ReasonRequest, @Caller() caller: CallerContext): Promise<Transaction> {
    return this.services.request(INCOMING_SUBJECTS.rejectTransaction, { transactionId, ...(body.reason !== undefined ? { reason: body.reason } : {}) }, caller);
  }

  @Post(':transactionId/confirm')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm the receipt was delivered',
    description: 'Records when the platform delivered the receipt to its customer (default: now); calling again moves the time.',
  })
  @ApiParam(TRANSACTION_ID)
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors(400, 401, 404)
  confirm(@Param('transactionId') transactionId: string, @Body() body: ConfirmReceiptDeliveryRequest, @Caller() caller: CallerContext): Promise<Transaction> {
    return this.services.request(
      INCOMING_SUBJECTS.confirmTransaction,
      { transactionId, ...(body.receiptDeliveryConfirmedAt !== undefined ? { receiptDeliveryConfirmedAt: body.receiptDeliveryConfirmedAt } : {}) },
      caller,
    );
  }

  @Post(':transactionId/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a payment that has not settled',
    description:
      'A PENDING transfer or quote payout fails with failureReason CANCELLED and its money goes back (a quote payout: `refund` COMPLETED, reason USER_CANCELLATION); ' +
      'an incoming payment still waiting for a decision fails the same way. A PROCESSING quote payout is cancelled as the transaction lifecycle guide describes: ' +
      '`OUTGOING_PAYMENT.REFUND_PENDING` now, `REFUND_COMPLETED` once the source is credited, then `OUTGOING_PAYMENT.COMPLETED` with nothing paid out (read `refund`). ' +
      'Anything else answers 409 TRANSACTION_NOT_CANCELLABLE.',
  })
  @ApiParam(TRANSACTION_ID)
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors(400, 401, 404, 409)
  cancel(@Param('transactionId') transactionId: string, @Body() body: ReasonRequest, @Caller() caller: CallerContext): Promise<Transaction> {
    return this.services.request(INCOMING_SUBJECTS.cancelTransaction, { transactionId, ...(body.reason !== undefined ? { reason: body.reason } : {}) }, caller);
  }
}

@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox')
export class SandboxPaymentsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('send')
  @HttpCode(200)
  @ApiOperation({
    summary: "Pay a real-time funded quote's instructions",
    description:
      "Stands in for the bank transfer a REALTIME_FUNDING quote's payment instructions ask for: the funds arrive in the quote's sending currency (the amount, when given, " +
      'must be its totalSendingAmount) and the quote executes by itself, following the same sandbox outcomes as an executed quote. Sandbox tokens only.',
  })
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  send(@Body() body: SandboxSendRequest, @Caller() caller: CallerContext): Promise<Transaction> {
    return this.services.request(
      QUOTES_SUBJECTS.sandboxSend,
      { quoteId: body.quoteId, currencyCode: body.currencyCode, ...(body.currencyAmount !== undefined ? { currencyAmount: body.currencyAmount } : {}) },
      caller,
    );
  }

  @Post('uma/receive')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Receive a UMA payment from a sandbox counterparty',
    description:
      'A sandbox UMA counterparty (e.g. $success.usd@sandbox.uma.money) pays a customer of the platform, named by its UMA address or customerId, in the receiving currency. ' +
      'The payment waits PENDING for the platform (`INCOMING_PAYMENT.PENDING` with the counterparty information and the receiver data asked for): approve or reject it with ' +
      'POST /transactions/{id}/approve or /reject before the deadline. Sandbox tokens only.',
  })
  @ApiOkResponse({ type: TransactionResponseDto })
  @ApiErrors(400, 401, 403, 404)
  receive(@Body() body: SandboxUmaReceiveRequest, @Caller() caller: CallerContext): Promise<Transaction> {
    return this.services.request(
      INCOMING_SUBJECTS.sandboxUmaReceive,
      {
        senderUmaAddress: body.senderUmaAddress,
        ...(body.receiverUmaAddress !== undefined ? { receiverUmaAddress: body.receiverUmaAddress } : {}),
        ...(body.customerId !== undefined ? { customerId: body.customerId } : {}),
        receivingCurrencyCode: body.receivingCurrencyCode,
        receivingCurrencyAmount: body.receivingCurrencyAmount,
      },
      caller,
    );
  }
}
