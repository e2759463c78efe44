import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CallerContext, CreateQuoteMessage, CreateQuoteRequest, ExecuteQuoteRequest, Quote, QUOTES_SUBJECTS, SignedRetryInput, SignedRetryOutcome } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { SignedAction, SignedRetry } from '../http/signed-action.decorator';
import { CLIENT_RETRIES, CLIENT_RETRY_HEADER, clientRetry } from '../http/client-retry';
import { QuoteResponseDto } from './dto/quote.response';

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description: 'Same key and body: the first answer again, with no second effect. Same key with another body: 409 IDEMPOTENCY_KEY_REUSED.',
};

const SANDBOX_OUTCOMES =
  "Sandbox outcome by the last 3 digits of the destination external account's primary identifier: 002 execution fails; 003 completes after about 6 minutes; " +
  '004 delivery to the counterparty fails; 005 completes, then the receiving bank returns it; 006 the user cancels; 007 the payout and its refund fail; ' +
  'anything else completes. After a failure (004, 005, 006, 007) the transaction carries a `refund`: PENDING, then COMPLETED with the debited amount back on the source ' +
  '(reason TRANSACTION_FAILED; USER_CANCELLATION for 006), or FAILED for 007 (the money stays with the service). ' +
  'Webhooks: `OUTGOING_PAYMENT.<STATUS>` on every status, `OUTGOING_PAYMENT.REFUND_<STATUS>` on every refund status.';

@ApiTags('Cross-Currency Transfers')
@ApiBasicAuth('BasicAuth')
@Controller('quotes')
export class QuotesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a quote',
    description:
      'Prices a cross-currency payment and locks the rate and fees until `expiresAt`. Lock the sending or the receiving amount (smallest unit of that side): ' +
      'fees are taken from the sending amount (variable fees rounded up), the rest converts at the corridor rate and rounds down to the smallest receiving unit; ' +
      'a locked receiving amount is met by the smallest sending amount that reaches it. `immediatelyExecute` executes it in the same call. ' +
      'A REALTIME_FUNDING source answers payment instructions; the quote executes once they are paid. ' +
      `With \`immediatelyExecute\` (an ACCOUNT source): ${CLIENT_RETRIES} The retry answers that quote as GET returns it now. A quote that does not execute at once moves no money: each call creates one.`,
  })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiCreatedResponse({ type: QuoteResponseDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  create(
    @Body() body: CreateQuoteRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers(CLIENT_RETRY_HEADER) retryCount: string | undefined,
    @Caller() caller: CallerContext,
  ): Promise<Quote> {
    return this.services.request(QUOTES_SUBJECTS.createQuote, createQuoteMessage(body, idempotencyKey, retryCount), caller);
  }

  @Get(':quoteId')
  @ApiOperation({ summary: 'Get a quote', description: 'The quote with its current status; `transactionId` names the transaction its execution creates.' })
  @ApiParam({ name: 'quoteId', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: QuoteResponseDto })
  @ApiErrors(401, 404)
  get(@Param('quoteId') quoteId: string, @Caller() caller: CallerContext): Promise<Quote> {
    return this.services.request(QUOTES_SUBJECTS.getQuote, { quoteId }, caller);
  }

  @Post(':quoteId/execute')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Execute a quote',
    description:
      'Debits the source at the locked rate and fees and starts the payout; a quote executes once (a repeat answers 409, concurrent calls execute it once). ' +
      'An expired quote answers 409 with `details.reason` QUOTE_EXPIRED. From an EMBEDDED_WALLET the wallet signs it, after every other check: in one call, ' +
      "`Service-Wallet-Signature` carries a stamp over the quote's `paymentInstructions[].accountOrWalletInfo.payloadToSign` by a session key of the wallet " +
      '(401 when malformed or not a session of the wallet over that payload; the challenge is single use and expires with the quote); ' +
      'or, as a signed retry, a call without the header answers 202 with a challenge and the retry with `Service-Wallet-Signature` and `Request-Id` executes it. ' +
      `A repeated Idempotency-Key answers its first result without a signature. ${SANDBOX_OUTCOMES}`,
  })
  @ApiParam({ name: 'quoteId', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiOkResponse({ type: QuoteResponseDto })
  @SignedAction()
  @ApiErrors(400, 401, 403, 404, 409, 429)
  execute(
    @Param('quoteId') quoteId: string,
    // The body is optional and carries nothing the sandbox needs; it is validated all the same.
    @Body() _body: ExecuteQuoteRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Caller() caller: CallerContext,
    @SignedRetry() signedRetry: SignedRetryInput,
  ): Promise<SignedRetryOutcome<Quote>> {
    return this.services.request(QUOTES_SUBJECTS.executeQuote, { quoteId, signedRetry, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) }, caller);
  }
}

/**
 * A quote's message: the validated body's fields (nothing else of it), the `Idempotency-Key` header
 * and a client's retry (`X-Stainless-Retry-Count`) (also the agents' route).
 */
export function createQuoteMessage(body: CreateQuoteRequest, idempotencyKey: string | undefined, retryCount?: string): CreateQuoteMessage {
  return {
    source: {
      sourceType: body.source.sourceType,
      ...(body.source.accountId !== undefined ? { accountId: body.source.accountId } : {}),
      ...(body.source.customerId !== undefined ? { customerId: body.source.customerId } : {}),
      ...(body.source.currency !== undefined ? { currency: body.source.currency } : {}),
      ...(body.source.cryptoNetwork !== undefined ? { cryptoNetwork: body.source.cryptoNetwork } : {}),
    },
    destination: {
      destinationType: body.destination.destinationType,
      ...(body.destination.accountId !== undefined ? { accountId: body.destination.accountId } : {}),
      ...(body.destination.paymentRail !== undefined ? { paymentRail: body.destination.paymentRail } : {}),
      ...(body.destination.umaAddress !== undefined ? { umaAddress: body.destination.umaAddress } : {}),
      ...(body.destination.currency !== undefined ? { currency: body.destination.currency } : {}),
    },
    lockedCurrencySide: body.lockedCurrencySide,
    lockedCurrencyAmount: body.lockedCurrencyAmount,
    ...(body.lookupId !== undefined ? { lookupId: body.lookupId } : {}),
    ...(body.immediatelyExecute !== undefined ? { immediatelyExecute: body.immediatelyExecute } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.remittanceInformation !== undefined ? { remittanceInformation: body.remittanceInformation } : {}),
    ...(body.purposeOfPayment !== undefined ? { purposeOfPayment: body.purposeOfPayment } : {}),
    ...(body.platformFeeOverride !== undefined
      ? {
          platformFeeOverride: {
            platformFixedFee: { amount: body.platformFeeOverride.platformFixedFee.amount, currency: body.platformFeeOverride.platformFixedFee.currency },
            platformVariableFeeBps: body.platformFeeOverride.platformVariableFeeBps,
          },
        }
      : {}),
    ...(body.scaFactor !== undefined ? { scaFactor: body.scaFactor } : {}),
    ...(body.senderCustomerInfo !== undefined ? { senderCustomerInfo: body.senderCustomerInfo } : {}),
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    ...clientRetry(retryCount),
  } as CreateQuoteMessage;
}
