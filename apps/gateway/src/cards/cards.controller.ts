import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  CallerContext,
  Card,
  CardReveal,
  CARDS_SUBJECTS,
  CardTransaction,
  CreateCardRequest,
  ListCardsRequest,
  ListCardTransactionsQuery,
  Page,
  SignedRetryInput,
  SignedRetryOutcome,
  UpdateCardBody,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { SignedAction, SignedRetry } from '../http/signed-action.decorator';
import { CardPageDto, CardResponseDto, CardRevealResponseDto, CardTransactionPageDto, CardTransactionResponseDto } from './dto/card.response';
import { revealPagePath } from './card-reveal-page.controller';

const CARD_ID = { name: 'id', description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' };

const ISSUANCE =
  'Sandbox outcome by the last 3 characters of `platformCardId` (or of `cardholderId` when omitted): 001 stays PROCESSING; 002 CLOSED with ISSUER_REJECTED; ' +
  '005 ACTIVE after about 30 s (CARD.STATE_CHANGE); other ACTIVE at once; last4 is deterministic from the suffix. ' +
  'Funding sources: internal accounts of the cardholder in USDC (sandbox account suffixes 002 and 003 are ineligible), else 400 FUNDING_SOURCE_INELIGIBLE. ' +
  'The cardholder must be ready (KYC/KYB approved), else 400 CARDHOLDER_KYC_NOT_APPROVED. `maxSpendPerTransaction` (optional) caps every authorization: one above it is ' +
  'declined with TRANSACTION_SIZE_LIMIT_EXCEEDED. `threeDSecurePassword` (optional; generated when omitted) is kept by the issuer only as a salted hash: never returned, never logged.';

@ApiTags('Cards')
@ApiBasicAuth('BasicAuth')
@Controller()
export class CardsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('cards')
  @HttpCode(201)
  @ApiOperation({ summary: 'Issue a card', description: ISSUANCE })
  @ApiCreatedResponse({ type: CardResponseDto })
  @ApiErrors(400, 401, 403, 404, 410)
  create(@Body() body: CreateCardRequest, @Caller() caller: CallerContext): Promise<Card> {
    return this.services.request(
      CARDS_SUBJECTS.createCard,
      {
        cardholderId: body.cardholderId,
        platformCardId: body.platformCardId,
        form: body.form,
        fundingSources: body.fundingSources,
        maxSpendPerTransaction: body.maxSpendPerTransaction,
        threeDSecurePassword: body.threeDSecurePassword,
      },
      caller,
    );
  }

  @Get('cards')
  @ApiOperation({
    summary: 'List cards',
    description: 'Newest first (or oldest first with `sortOrder=asc`), cursor-paginated; filter by cardholder, state, funding-source account and platformCardId.',
  })
  @ApiOkResponse({ type: CardPageDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListCardsRequest, @Caller() caller: CallerContext): Promise<Page<Card>> {
    return this.services.request(
      CARDS_SUBJECTS.listCards,
      {
        cardholderId: query.cardholderId,
        state: query.state,
        accountId: query.accountId,
        platformCardId: query.platformCardId,
        sortOrder: query.sortOrder,
        limit: query.limit,
        cursor: query.cursor,
      },
      caller,
    );
  }

  @Get('cards/:id')
  @ApiOperation({ summary: 'Get a card' })
  @ApiParam(CARD_ID)
  @ApiOkResponse({ type: CardResponseDto })
  @ApiErrors(401, 404)
  get(@Param('id') id: string, @Caller() caller: CallerContext): Promise<Card> {
    return this.services.request(CARDS_SUBJECTS.getCard, { cardId: id }, caller);
  }

  @Patch('cards/:id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Freeze, unfreeze or close a card, replace its funding sources or change its spending limit',
    description:
      'Signed retry: the first call validates the whole request and answers 202 with `payloadToSign`; the retry with `Service-Wallet-Signature` ' +
      "(a session key of the card's owning internal account, its first funding source) and `Request-Id` answers 200 with the Card. " +
      'Transitions: ACTIVE→FROZEN, FROZEN→ACTIVE, ACTIVE/FROZEN→CLOSED; anything else 409 INVALID_STATE_TRANSITION. A closed card answers 409 ' +
      'CARD_ALREADY_CLOSED (state) or CARD_NOT_MUTABLE (funding sources). `fundingSources` replaces the ordered list (at least one) and cannot be sent with state CLOSED. ' +
      '`maxSpendPerTransaction` sets the per-authorization limit (null removes it; not with state CLOSED).',
  })
  @ApiParam(CARD_ID)
  @ApiOkResponse({ type: CardResponseDto })
  @SignedAction()
  @ApiErrors(400, 401, 404, 409)
  update(@Param('id') id: string, @Body() body: UpdateCardBody, @Caller() caller: CallerContext, @SignedRetry() signedRetry: SignedRetryInput): Promise<SignedRetryOutcome<Card>> {
    return this.services.request(
      CARDS_SUBJECTS.updateCard,
      { cardId: id, state: body.state, fundingSources: body.fundingSources, maxSpendPerTransaction: body.maxSpendPerTransaction, signedRetry },
      caller,
    );
  }

  @Post('cards/:id/reveal')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reveal card details',
    description:
      "Mints a single-use URL, valid 5 minutes, of a page that shows the card's full number, security code and expiry to the cardholder (`panEmbedUrl`, " +
      'outside the versioned base path). The card resource never carries it. The URL is a bearer secret: render it at once, never store or log it. ' +
      'Every reveal is audit-logged with the request that asked it. A card still PROCESSING or CLOSED has no details to show: 409 CONFLICT.',
  })
  @ApiParam(CARD_ID)
  @ApiOkResponse({ type: CardRevealResponseDto })
  @ApiErrors(401, 404, 409)
  async reveal(@Param('id') id: string, @Req() request: FastifyRequest, @Caller() caller: CallerContext): Promise<CardReveal> {
    const grant = await this.services.request(CARDS_SUBJECTS.revealCard, { cardId: id }, caller);
    return { panEmbedUrl: `${request.protocol}://${request.headers.host}${revealPagePath(grant.token)}`, expiresAt: grant.expiresAt };
  }

  @Get('cards/:id/transactions')
  @ApiOperation({ summary: "List a card's transactions", description: 'Newest first, cursor-paginated; filter by status.' })
  @ApiParam(CARD_ID)
  @ApiOkResponse({ type: CardTransactionPageDto })
  @ApiErrors(400, 401, 404)
  listTransactions(@Param('id') id: string, @Query() query: ListCardTransactionsQuery, @Caller() caller: CallerContext): Promise<Page<CardTransaction>> {
    return this.services.request(CARDS_SUBJECTS.listCardTransactions, { cardId: id, status: query.status, limit: query.limit, cursor: query.cursor }, caller);
  }

  @Get('card-transactions/:cardTransactionId')
  @ApiOperation({ summary: 'Get a card transaction' })
  @ApiParam({ name: 'cardTransactionId', description: 'Card transaction id', example: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: CardTransactionResponseDto })
  @ApiErrors(401, 404)
  getTransaction(@Param('cardTransactionId') cardTransactionId: string, @Caller() caller: CallerContext): Promise<CardTransaction> {
    return this.services.request(CARDS_SUBJECTS.getCardTransaction, { cardTransactionId }, caller);
  }
}
