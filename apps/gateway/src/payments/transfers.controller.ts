import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  CardTransaction,
  ListTransactionsQuery,
  Page,
  PAYMENTS_SUBJECTS,
  SignedRetryInput,
  SignedRetryOutcome,
  Transaction,
  TransferInMessage,
  TransferInRequest,
  TransferOutMessage,
  TransferOutRequest,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { SignedAction, SignedRetry } from '../http/signed-action.decorator';
import { CLIENT_RETRIES, CLIENT_RETRY_HEADER, clientRetry } from '../http/client-retry';
import { TransactionResponseDto } from './dto/transaction.response';
import {
  ApiTransactionListWithCardsResponse,
  ApiTransactionOrCardTransactionResponse,
  getCardTransaction,
  isCardTransactionId,
  listWithCardTransactions,
} from '../cards/card-transaction-lookup';

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description: 'Same key and body: the first answer again, no second movement. Same key with another body: 409 CONFLICT (`details.reason` IDEMPOTENCY_KEY_REUSED).',
};

const SANDBOX_OUTCOMES =
  "Sandbox outcome by the last 3 digits of the external account's primary identifier: 002 insufficient funds and 003 account closed or invalid fail immediately; " +
  '004 rejected by the bank; 005 pending about 30 s, then fails; anything else completes. Webhooks: `OUTGOING_PAYMENT.<STATUS>` on every status of a payout, ' +
  '`INCOMING_PAYMENT.PENDING`, `.COMPLETED` and `.FAILED` for a pull.';

@ApiTags('Transfers')
@ApiBasicAuth('BasicAuth')
@Controller()
export class TransfersController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('transfer-out')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Send funds to an external account',
    description:
      'Moves funds from an internal account to an external account of the same currency; the amount is held until the transfer completes, and returned if it fails. ' +
      'Without `amount` the whole available balance of the source is sent. `destination.paymentRail` must be one of the rails the external account lists (default: its first, ' +
      'or the usual rail of its type); `remittanceInformation` and `purposeOfPayment` are kept and returned. ' +
      'From an EMBEDDED_WALLET it is a signed retry: every check first, then 202 with the challenge, and the retry signed by a session of the wallet moves the money (201). ' +
      `A repeated Idempotency-Key answers its first result without a signature. ${CLIENT_RETRIES} ${SANDBOX_OUTCOMES}`,
  })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiCreatedResponse({ type: TransactionResponseDto })
  @SignedAction()
  @ApiErrors(400, 401, 403, 404, 409, 429)
  transferOut(
    @Body() body: TransferOutRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers(CLIENT_RETRY_HEADER) retryCount: string | undefined,
    @Caller() caller: CallerContext,
    @SignedRetry() signedRetry: SignedRetryInput,
  ): Promise<SignedRetryOutcome<Transaction>> {
    // payments decides whether a wallet must sign, after every check (so 4xx come before any 202).
    const message: TransferOutMessage = { ...transferOutMessage(body, idempotencyKey), ...clientRetry(retryCount), signedRetry };
    return this.services.request(PAYMENTS_SUBJECTS.transferOut, message, caller);
  }

  @Post('transfer-in')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Pull funds from an external account',
    description:
      'Moves funds from an external account into an internal account of the same currency; the account is credited when the transfer completes. ' +
      `A pull needs \`amount\` (400 INVALID_AMOUNT without it: the external balance cannot be read). ${CLIENT_RETRIES} ${SANDBOX_OUTCOMES}`,
  })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiCreatedResponse({ type: TransactionResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  transferIn(
    @Body() body: TransferInRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers(CLIENT_RETRY_HEADER) retryCount: string | undefined,
    @Caller() caller: CallerContext,
  ): Promise<Transaction> {
    return this.services.request(PAYMENTS_SUBJECTS.transferIn, { ...transferInMessage(body, idempotencyKey), ...clientRetry(retryCount) }, caller);
  }
}

@ApiTags('Transactions')
@ApiBasicAuth('BasicAuth')
@Controller('transactions')
export class TransactionsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @ApiOperation({
    summary: 'List transactions',
    description:
      "Payments and card transactions (`type: CARD`). Filters: account (either side, sender or receiver), customer (the platform's id: its own accounts), platform customer id, status, type, reference, created range. " +
      'Newest first unless `sortOrder=asc`; cursor-paginated.',
  })
  @ApiTransactionListWithCardsResponse()
  @ApiErrors(400, 401)
  list(@Query() query: ListTransactionsQuery, @Caller() caller: CallerContext): Promise<Page<Transaction | CardTransaction>> {
    return listWithCardTransactions(this.services, query, caller, (cursor, limit) =>
      this.services.request(
        PAYMENTS_SUBJECTS.listTransactions,
        {
          accountId: query.accountId,
          accountIdentifier: query.accountIdentifier,
          senderAccountIdentifier: query.senderAccountIdentifier,
          receiverAccountIdentifier: query.receiverAccountIdentifier,
          customerId: query.customerId,
          platformCustomerId: query.platformCustomerId,
          status: query.status,
          type: query.type,
          reference: query.reference,
          startDate: query.startDate,
          endDate: query.endDate,
          createdAfter: query.createdAfter,
          createdBefore: query.createdBefore,
          sortOrder: query.sortOrder,
          limit,
          cursor,
        },
        caller,
      ),
    );
  }

  @Get(':transactionId')
  @ApiOperation({ summary: 'Get a transaction' })
  @ApiParam({ name: 'transactionId', example: 'Transaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiTransactionOrCardTransactionResponse()
  @ApiErrors(401, 404)
  get(@Param('transactionId') transactionId: string, @Caller() caller: CallerContext): Promise<Transaction | CardTransaction> {
    if (isCardTransactionId(transactionId)) return getCardTransaction(this.services, transactionId, caller);
    return this.services.request(PAYMENTS_SUBJECTS.getTransaction, { transactionId }, caller);
  }
}

/** A transfer-out's message: the validated body's fields (nothing else of it) and the `Idempotency-Key` header. */
function transferOutMessage(body: TransferOutRequest, idempotencyKey: string | undefined): TransferOutMessage {
  return {
    source: { accountId: body.source.accountId },
    destination: { accountId: body.destination.accountId, ...(body.destination.paymentRail !== undefined ? { paymentRail: body.destination.paymentRail } : {}) },
    ...(body.amount !== undefined ? { amount: body.amount } : {}),
    ...(body.currency !== undefined ? { currency: body.currency } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.remittanceInformation !== undefined ? { remittanceInformation: body.remittanceInformation } : {}),
    ...(body.purposeOfPayment !== undefined ? { purposeOfPayment: body.purposeOfPayment } : {}),
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
  };
}

/** A transfer-in's message: the validated body's fields (nothing else of it) and the `Idempotency-Key` header. */
function transferInMessage(body: TransferInRequest, idempotencyKey: string | undefined): TransferInMessage {
  return {
    source: { accountId: body.source.accountId },
    destination: { accountId: body.destination.accountId },
    ...(body.amount !== undefined ? { amount: body.amount } : {}),
    ...(body.currency !== undefined ? { currency: body.currency } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
  };
}
