import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBasicAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  CardAuthorizationSimulation,
  CARDS_SUBJECTS,
  CardTransaction,
  SandboxCardAuthorizationAdviceBody,
  SandboxCardAuthorizationBody,
  SandboxCardBalanceInquiryBody,
  SandboxCardClearingBody,
  SandboxCardReturnBody,
  SandboxCardSimulationResponse,
  SandboxCardTransactionRefBody,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { BasicAuthOnly } from '../auth/public.decorator';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { CardTransactionResponseDto, SandboxCardSimulationResponseDto } from './dto/card.response';

const CARD_ID = { name: 'id', description: 'Card id (`Card:<uuid>`)', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' };

const OUTCOMES =
  'Outcome by the last 3 characters of `merchant.descriptor`: 002 declined INSUFFICIENT_FUNDS (the pull fails); 003 declined CARD_PAUSED; ' +
  '005 PENDING, the pull happens about 30 s later (then CONFIRMED); 006 the pull succeeds but the confirmation fails (EXCEPTION, high urgency); ' +
  "other approved. A FROZEN card declines with CARD_PAUSED; an amount above the card's maxSpendPerTransaction with TRANSACTION_SIZE_LIMIT_EXCEEDED. " +
  "Debits hold the amount on the card's first funding source; credits put it back there. `currency` is the card's (USDC), or USD for a USDC card " +
  '(converted at par: one cent is 10^4 of USDC units); only its `code` matters. Sandbox only, Basic authentication only; CARD_TRANSACTION.* webhooks follow.';

/** The sandbox card network. Each simulator runs in the cards service (it scales with it). */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@BasicAuthOnly()
@Controller('sandbox/cards/:id/simulate')
export class SandboxCardsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('authorization')
  @HttpCode(202)
  @ApiOperation({ summary: 'Simulate an authorization', description: `Returns the resulting CardTransaction (CONFIRMED when approved). ${OUTCOMES}` })
  @ApiParam(CARD_ID)
  @ApiAcceptedResponse({ type: CardTransactionResponseDto })
  @ApiErrors(400, 401, 403, 404)
  authorization(@Param('id') id: string, @Body() body: SandboxCardAuthorizationBody, @Caller() caller: CallerContext): Promise<CardTransaction> {
    return this.authorize(id, 'AUTHORIZATION', body, caller);
  }

  @Post('credit_authorization')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Simulate a credit authorization',
    description: `Credits the amount to the funding source; returns the CardTransaction (SETTLED, direction CREDIT). ${OUTCOMES}`,
  })
  @ApiParam(CARD_ID)
  @ApiAcceptedResponse({ type: CardTransactionResponseDto })
  @ApiErrors(400, 401, 403, 404)
  creditAuthorization(@Param('id') id: string, @Body() body: SandboxCardAuthorizationBody, @Caller() caller: CallerContext): Promise<CardTransaction> {
    return this.authorize(id, 'CREDIT_AUTHORIZATION', body, caller);
  }

  @Post('financial_authorization')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Simulate a financial (single-message) authorization',
    description: `Authorized and posted at once; returns the CardTransaction (SETTLED). ${OUTCOMES}`,
  })
  @ApiParam(CARD_ID)
  @ApiAcceptedResponse({ type: CardTransactionResponseDto })
  @ApiErrors(400, 401, 403, 404)
  financialAuthorization(@Param('id') id: string, @Body() body: SandboxCardAuthorizationBody, @Caller() caller: CallerContext): Promise<CardTransaction> {
    return this.authorize(id, 'FINANCIAL_AUTHORIZATION', body, caller);
  }

  @Post('financial_credit_authorization')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Simulate a financial (single-message) credit authorization',
    description: `Credits the amount to the funding source at once; returns the CardTransaction (SETTLED). ${OUTCOMES}`,
  })
  @ApiParam(CARD_ID)
  @ApiAcceptedResponse({ type: CardTransactionResponseDto })
  @ApiErrors(400, 401, 403, 404)
  financialCreditAuthorization(@Param('id') id: string, @Body() body: SandboxCardAuthorizationBody, @Caller() caller: CallerContext): Promise<CardTransaction> {
    return this.authorize(id, 'FINANCIAL_CREDIT_AUTHORIZATION', body, caller);
  }

  @Post('credit_authorization_advice')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Simulate a credit authorization advice',
    description: `A network-initiated CREDIT_AUTHORIZATION_ADVICE keyed by the card and merchant. Answers 202 with the issuerTransactionToken; the card operation is delivered later through the events webhook (CARD_TRANSACTION.*), never in this response. ${OUTCOMES}`,
  })
  @ApiParam(CARD_ID)
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponseDto })
  @ApiErrors(400, 401, 403, 404)
  creditAuthorizationAdvice(@Param('id') id: string, @Body() body: SandboxCardAuthorizationBody, @Caller() caller: CallerContext): Promise<SandboxCardSimulationResponse> {
    return this.services.request(CARDS_SUBJECTS.simulateAdvice, { cardId: id, amount: body.amount, currency: body.currency, merchant: body.merchant }, caller);
  }

  @Post('clearing')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Simulate a clearing',
    description:
      'Posts an authorization: SETTLED with settledAmount. Above the authorized amount the excess is pulled from the funding source afterwards; ' +
      'amount 0 expires the authorization with no clearing (EXPIRED, expiryReason AUTHORIZATION_EXPIRY). A clearing after the card closed follows the force-post path. Returns the CardTransaction.',
  })
  @ApiParam(CARD_ID)
  @ApiAcceptedResponse({ type: CardTransactionResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  clearing(@Param('id') id: string, @Body() body: SandboxCardClearingBody, @Caller() caller: CallerContext): Promise<CardTransaction> {
    return this.services.request(CARDS_SUBJECTS.simulateClearing, { cardId: id, cardTransactionId: body.cardTransactionId, amount: body.amount }, caller);
  }

  @Post('return')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Simulate a return',
    description:
      'Refunds a settled transaction to its funding source: the full amount moves it to REFUNDED; a partial one keeps it SETTLED with refundedAmount. Returns the CardTransaction.',
  })
  @ApiParam(CARD_ID)
  @ApiAcceptedResponse({ type: CardTransactionResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  return(@Param('id') id: string, @Body() body: SandboxCardReturnBody, @Caller() caller: CallerContext): Promise<CardTransaction> {
    return this.services.request(CARDS_SUBJECTS.simulateReturn, { cardId: id, cardTransactionId: body.cardTransactionId, amount: body.amount }, caller);
  }

  @Post('balance_inquiry')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Simulate a balance inquiry',
    description:
      'A zero-amount authorization from `merchant`: decided like an authorization (card state, descriptor suffixes 002 and 003 decline), no money moves; ' +
      'approved, it is recorded SETTLED with amount 0 (operation BALANCE_INQUIRY). Answers 202 with the issuerTransactionToken of the recorded card transaction; CARD_TRANSACTION.* webhooks follow.',
  })
  @ApiParam(CARD_ID)
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponseDto })
  @ApiErrors(400, 401, 403, 404)
  balanceInquiry(@Param('id') id: string, @Body() body: SandboxCardBalanceInquiryBody, @Caller() caller: CallerContext): Promise<SandboxCardSimulationResponse> {
    return this.services.request(CARDS_SUBJECTS.simulateBalanceInquiry, { cardId: id, merchant: body.merchant }, caller);
  }

  @Post('authorization_advice')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Simulate an authorization advice',
    description:
      'Re-sizes an open authorization (CONFIRMED, not yet cleared) of this card to the new total `amount`, in the card currency. The new total is recorded ' +
      'whatever the balance (the network does not ask); its hold follows when the funding source covers it, else the clearing pulls the difference. ' +
      "Answers 202 with the transaction's issuerTransactionToken; CARD_TRANSACTION.AUTHORIZED follows with the new authorizedAmount. Another status: 409 INVALID_STATE_TRANSITION.",
  })
  @ApiParam(CARD_ID)
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  authorizationAdvice(@Param('id') id: string, @Body() body: SandboxCardAuthorizationAdviceBody, @Caller() caller: CallerContext): Promise<SandboxCardSimulationResponse> {
    return this.services.request(CARDS_SUBJECTS.simulateAuthorizationAdvice, { cardId: id, cardTransactionId: body.cardTransactionId, amount: body.amount }, caller);
  }

  @Post('return_reversal')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Simulate a return reversal',
    description:
      'Reverses the returns of a REFUNDED transaction of this card: the refunded amount is taken from the funding source again and the transaction is SETTLED ' +
      'with refundedAmount 0 (CARD_TRANSACTION.SETTLED). When the funding source no longer covers it: EXCEPTION with reason RETURN_REVERSAL_FAILED (high urgency). ' +
      "Answers 202 with the transaction's issuerTransactionToken. Another status: 409 INVALID_STATE_TRANSITION.",
  })
  @ApiParam(CARD_ID)
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  returnReversal(@Param('id') id: string, @Body() body: SandboxCardTransactionRefBody, @Caller() caller: CallerContext): Promise<SandboxCardSimulationResponse> {
    return this.services.request(CARDS_SUBJECTS.simulateReturnReversal, { cardId: id, cardTransactionId: body.cardTransactionId }, caller);
  }

  private authorize(cardId: string, type: CardAuthorizationSimulation, body: SandboxCardAuthorizationBody, caller: CallerContext): Promise<CardTransaction> {
    return this.services.request(CARDS_SUBJECTS.simulateAuthorization, { cardId, type, amount: body.amount, currency: body.currency, merchant: body.merchant }, caller);
  }
}
