import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CallerContext, Quote, QUOTES_SUBJECTS, ScaProofInput } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { QuoteResponseDto } from './dto/quote.response';

const QUOTE_ID = { name: 'quoteId', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' };

/** Strong Customer Authentication of a quote (payments; the challenges are wallet-auth's). */
@ApiTags('Strong Customer Authentication')
@ApiBasicAuth('BasicAuth')
@Controller('quotes')
export class QuoteAuthorizationController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post(':quoteId/authorize')
  @HttpCode(200)
  @ApiOperation({
    summary: "Authorize a quote's SCA challenge",
    description:
      "The proof of the quote's `scaChallenge`: `code` (SMS_OTP; sandbox `123456`) or `passkeyAssertion` with `origin` (PASSKEY, over the challenge's " +
      '`passkeyAssertionOptions.challenge`). Each challenge is bound to the amount, currency and payee: a changed payment refuses it (400, `details.reason` ' +
      'DYNAMIC_LINKING_MISMATCH). A cross-currency payment has two challenges in sequence (CURRENCY_CONVERSION, then PAYOUT): while the answer is still ' +
      'PENDING_AUTHORIZATION it carries the next one. After the last, an ACCOUNT-funded quote executes (PROCESSING) and a real-time funded one shows its ' +
      'paymentInstructions. Needs an SCA login session (409 SCA_SESSION_REQUIRED); a locked customer answers 423 ACCOUNT_LOCKED; a wrong proof 400, and ' +
      'after 5 wrong proofs the challenge is invalidated (429 with Retry-After). A quote of a customer outside the EEA answers 409.',
  })
  @ApiParam(QUOTE_ID)
  @ApiOkResponse({ type: QuoteResponseDto })
  @ApiErrors(400, 401, 404, 409, 423, 429)
  authorize(@Param('quoteId') quoteId: string, @Body() body: ScaProofInput, @Caller() caller: CallerContext): Promise<Quote> {
    return this.services.request(
      QUOTES_SUBJECTS.authorizeQuote,
      { quoteId, code: body.code, passkeyAssertion: body.passkeyAssertion, origin: body.origin, endUserIpAddress: body.endUserIpAddress },
      caller,
    );
  }

  @Post(':quoteId/authorize/resend')
  @HttpCode(204)
  @ApiOperation({
    summary: "Resend a quote's SCA challenge code",
    description:
      'Sends the SMS_OTP code of the pending challenge again (a fresh code for the same challenge); its `expiresAt` is not extended. ' +
      'At most once per 30 seconds (429 with Retry-After); a PASSKEY challenge, or none pending, answers 409.',
  })
  @ApiParam(QUOTE_ID)
  @ApiNoContentResponse({ description: 'Code re-sent' })
  @ApiErrors(401, 404, 409, 429)
  async resend(@Param('quoteId') quoteId: string, @Caller() caller: CallerContext): Promise<void> {
    await this.services.request(QUOTES_SUBJECTS.resendQuoteAuthorization, { quoteId }, caller);
  }
}
