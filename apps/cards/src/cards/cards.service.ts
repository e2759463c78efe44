import { randomInt } from 'node:crypto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  CallerContext,
  amountFromWire,
  Card,
  CardDetails,
  CardRevealGrant,
  CARD_WEBHOOK_TYPES,
  CARDS_EVENTS,
  CARDS_WORK_EVENTS,
  CreateCardRequest,
  Customer,
  CUSTOMERS_SUBJECTS,
  ListCardsRequest,
  newId,
  Page,
  SignedRetryOutcome,
  UpdateCardRequest,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, decodeCursor, idCursor, JobScheduler, Outbox, pageLimit, toPage, TransactionRunner } from '@paykit/persistence';
import { rootLogger, SandboxRules } from '@paykit/runtime';
import { SERVICE_CLIENT, ServiceClient, signedAction, walletAuthOverTransport } from '@paykit/transport';
import { toCard } from './card.mapper';
import { cardNotFound } from './cards.errors';
import { cardNumberAndCode, generatedThreeDsPassword, hashThreeDsPassword, newDetailsSeed, newRevealToken, revealTokenHash } from './card-details';
import { assertFundingMutable, assertStateChange } from './card-state-machine';
import { CardsRepository } from './cards.repository';
import { IssuanceOutcome, sandboxIssuanceOutcome, sandboxLast4 } from './cards.sandbox';
import { CardEntity } from './entities/card.entity';
import { ACTIVATE_CARD_JOB } from './cards.jobs';
import { FundingSourcesService } from './funding-sources.service';

const CARD_CURSOR = idCursor('Card');

/** Issued cards are valid for this many years. */
const CARD_VALIDITY_YEARS = 3;

/** A reveal URL works once, for this long. */
const REVEAL_TTL_MS = 5 * 60_000;

@Injectable()
export class CardsService implements OnModuleInit {
  constructor(
    private readonly cards: CardsRepository,
    private readonly funding: FundingSourcesService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly scheduler: JobScheduler,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(ACTIVATE_CARD_JOB, (payload, manager) => this.activate(manager, payload.platformId, payload.cardId));
  }

  async issue(ctx: CallerContext, request: CreateCardRequest): Promise<Card> {
    const customer = await this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId: request.cardholderId }, ctx);
    assertReady(customer);
    const currency = await this.funding.assertEligible(ctx, request.cardholderId, request.fundingSources);
    const sandbox = this.sandbox.applyTo(ctx);
    const outcome: IssuanceOutcome = sandbox ? sandboxIssuanceOutcome(request.platformCardId, request.cardholderId) : { state: 'ACTIVE' };
    const now = this.clock.now();
    const closed = outcome.state === 'CLOSED';
    // The issuer keeps only a salted hash of the 3-D Secure password (generated when none is given).
    const threeDsPasswordHash = await hashThreeDsPassword(request.threeDSecurePassword ?? generatedThreeDsPassword());
    const entity: CardEntity = {
      id: newId('Card'),
      platformId: ctx.platformId,
      cardholderId: request.cardholderId,
      platformCustomerId: customer.platformCustomerId,
      platformCardId: request.platformCardId ?? null,
      form: request.form,
      state: outcome.state,
      stateReason: outcome.stateReason ?? null,
      // An issuer-rejected card never holds bindings.
      fundingSources: closed ? [] : [...request.fundingSources],
      maxSpendPerTransaction: request.maxSpendPerTransaction === undefined || request.maxSpendPerTransaction === null ? null : amountFromWire(request.maxSpendPerTransaction),
      threeDsPasswordHash,
      detailsSeed: newDetailsSeed(),
      currencyCode: currency,
      last4: sandbox ? sandboxLast4(request.platformCardId, request.cardholderId) : randomLast4(),
      brand: 'VISA',
      expMonth: now.getUTCMonth() + 1,
      expYear: now.getUTCFullYear() + CARD_VALIDITY_YEARS,
      createdAt: now,
      updatedAt: now,
      closedAt: closed ? now : null,
    };
    const card = toCard(entity);
    await this.transactions.run(async (manager) => {
      await this.cards.insert(manager, entity);
      await this.cards.bind(manager, ctx.platformId, entity.id, entity.fundingSources, now);
      await this.outbox.add(manager, { subject: CARDS_EVENTS.cardIssued, platformId: ctx.platformId, resourceId: entity.id, data: card });
      if (outcome.activateAfterMs !== undefined) {
        await this.scheduler.schedule(manager, {
          kind: ACTIVATE_CARD_JOB,
          platformId: ctx.platformId,
          payload: { platformId: ctx.platformId, cardId: entity.id },
          delayMs: outcome.activateAfterMs,
          sandboxDelay: true,
          dedupeKey: `${entity.id}:activate`,
        });
      }
    });
    return card;
  }

  async get(ctx: CallerContext, cardId: string): Promise<Card> {
    return toCard(await this.require(ctx.platformId, cardId));
  }

  async list(ctx: CallerContext, request: ListCardsRequest): Promise<Page<Card>> {
    const limit = pageLimit(request.limit);
    const filter = { cardholderId: request.cardholderId, state: request.state, accountId: request.accountId, platformCardId: request.platformCardId };
    const [rows, totalCount] = await Promise.all([
      this.cards.list(ctx.platformId, { ...filter, afterId: decodeCursor(request.cursor, CARD_CURSOR), ascending: request.sortOrder === 'asc', limit: limit + 1 }),
      this.cards.count(ctx.platformId, filter),
    ]);
    return { ...toPage(rows, limit, toCard, CARD_CURSOR), totalCount };
  }

  /**
   * PATCH /cards/{id} through the signed retry: the whole request is validated on both calls
   * (so 4xx answers come before the 202); the change applies only after wallet-auth consumed
   * a challenge signed by a session of the card's owning account (its first funding source).
   */
  async update(ctx: CallerContext, request: UpdateCardRequest): Promise<SignedRetryOutcome<Card>> {
    const card = await this.require(ctx.platformId, request.cardId);
    assertChangeAllowed(card, request);
    if (request.fundingSources) await this.funding.assertEligible(ctx, card.cardholderId, request.fundingSources, card.currencyCode);
    return signedAction(walletAuthOverTransport(this.services), ctx, { accountId: card.fundingSources[0], operation: 'CARD_UPDATE', input: request.signedRetry }, () =>
      this.apply(ctx, request),
    );
  }

  private async apply(ctx: CallerContext, request: UpdateCardRequest): Promise<Card> {
    return this.transactions.run(async (manager) => {
      // Locked and checked again: the card may have changed since the first call.
      const entity = await this.cards.lockById(manager, ctx.platformId, request.cardId);
      if (!entity) throw cardNotFound(request.cardId);
      assertChangeAllowed(entity, request);
      const now = this.clock.now();
      const stateChanged = request.state !== undefined;
      if (request.state === 'CLOSED') {
        entity.state = 'CLOSED';
        entity.stateReason = 'CLOSED_BY_PLATFORM';
        entity.closedAt = now;
        entity.fundingSources = [];
        await this.cards.detachAll(manager, entity.id, now);
      } else if (request.state !== undefined) {
        entity.state = request.state;
      }
      if (request.fundingSources) {
        entity.fundingSources = [...request.fundingSources];
        await this.cards.bind(manager, ctx.platformId, entity.id, entity.fundingSources, now);
      }
      if (request.maxSpendPerTransaction !== undefined) {
        entity.maxSpendPerTransaction = request.maxSpendPerTransaction === null ? null : amountFromWire(request.maxSpendPerTransaction);
      }
      entity.updatedAt = now;
      await this.cards.save(manager, entity);
      const card = toCard(entity);
      if (stateChanged) await this.announceStateChange(manager, ctx.platformId, card);
      if (request.fundingSources) {
        await this.outbox.add(manager, {
          subject: CARDS_EVENTS.cardFundingSourcesChanged,
          platformId: ctx.platformId,
          resourceId: card.id,
          webhookType: CARD_WEBHOOK_TYPES.FUNDING_SOURCE_CHANGE,
          data: card,
        });
      }
      if (request.state === 'CLOSED') {
        // Open authorizations are released by the worker, outside this transaction.
        await this.outbox.add(manager, { subject: CARDS_WORK_EVENTS.cardClosed, platformId: ctx.platformId, resourceId: card.id, data: { cardId: card.id } });
      }
      return card;
    });
  }

  /**
   * Mints a single-use, short-lived URL of the page that shows the card's number, security code
   * and expiry. Only the token's hash is kept; the audit line names the card and the request,
   * never the token or the card details. A card not yet provisioned (PROCESSING) or CLOSED has no
   * details to show: 409 CONFLICT.
   */
  async reveal(ctx: CallerContext, cardId: string): Promise<CardRevealGrant> {
    const card = await this.require(ctx.platformId, cardId);
    if (card.state === 'PROCESSING' || card.state === 'CLOSED') {
      throw new ServiceError('CONFLICT', `Card ${cardId} is ${card.state}: it has no details to reveal`, { state: card.state });
    }
    const token = newRevealToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + REVEAL_TTL_MS);
    await this.cards.insertReveal({ tokenHash: revealTokenHash(token), platformId: ctx.platformId, cardId, expiresAt, redeemedAt: null, createdAt: now });
    // The audit line: who asked to see which card, never the URL, its token or the details.
    rootLogger().info(
      { context: CardsService.name, audit: 'card.reveal', cardId, platformId: ctx.platformId, requestId: ctx.requestId, expiresAt: expiresAt.toISOString() },
      'Card details reveal minted',
    );
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /** The reveal page's one look at the card details (the token is used up). */
  async redeemReveal(token: string): Promise<CardDetails> {
    const reveal = await this.cards.redeemReveal(revealTokenHash(token), this.clock.now());
    if (!reveal) throw new ServiceError('TOKEN_NOT_FOUND', 'This reveal link is unknown, used or expired');
    const card = await this.require(reveal.platformId, reveal.cardId);
    const seed = card.detailsSeed ?? (await this.cards.ensureDetailsSeed(card.platformId, card.id, newDetailsSeed()));
    const { pan, cvv } = cardNumberAndCode(seed, card.id, card.last4);
    rootLogger().info({ context: CardsService.name, audit: 'card.reveal.shown', cardId: card.id, platformId: card.platformId }, 'Card details shown on the reveal page');
    return { cardId: card.id, pan, cvv, expMonth: card.expMonth, expYear: card.expYear };
  }

  /** Sandbox delayed activation (issuance suffix 005). */
  private async activate(manager: EntityManager, platformId: string, cardId: string): Promise<void> {
    const activated = await this.cards.activateIfProcessing(manager, platformId, cardId, this.clock.now());
    if (!activated) return;
    const entity = await this.cards.findById(platformId, cardId, manager);
    await this.announceStateChange(manager, platformId, toCard(entity!));
  }

  /** Every state change (activation, freeze, unfreeze, close) announces the card with its new state. */
  private async announceStateChange(manager: EntityManager, platformId: string, card: Card): Promise<void> {
    await this.outbox.add(manager, {
      subject: CARDS_EVENTS.cardStateChanged,
      platformId,
      resourceId: card.id,
      webhookType: CARD_WEBHOOK_TYPES.STATE_CHANGE,
      data: card,
    });
  }

  private async require(platformId: string, cardId: string): Promise<CardEntity> {
    const entity = await this.cards.findById(platformId, cardId);
    if (!entity) throw cardNotFound(cardId);
    return entity;
  }
}

/** The order of the spec's checks: closed card first, then the state table; a closed card's limit cannot change either. */
function assertChangeAllowed(card: CardEntity, request: Pick<UpdateCardRequest, 'state' | 'fundingSources' | 'maxSpendPerTransaction'>): void {
  if (request.state !== undefined) assertStateChange(card.state, request.state);
  if (request.fundingSources !== undefined || request.maxSpendPerTransaction !== undefined) assertFundingMutable(card.state);
}

/** Only a customer whose KYC (individuals) or KYB (businesses) is approved gets a card. */
function assertReady(customer: Customer): void {
  // A deleted customer keeps its history but gets no new card.
  if (customer.isDeleted) throw new ServiceError('CUSTOMER_DELETED', `Customer ${customer.id} has been deleted`);
  const status = customer.customerType === 'BUSINESS' ? customer.kybStatus : customer.kycStatus;
  if (status !== 'APPROVED') {
    throw new ServiceError(
      'CARDHOLDER_KYC_NOT_APPROVED',
      `Customer ${customer.id} is not ready for a card (${customer.customerType === 'BUSINESS' ? 'KYB' : 'KYC'} ${status ?? 'missing'})`,
      { field: 'cardholderId' },
    );
  }
}

function randomLast4(): string {
  return String(randomInt(10_000)).padStart(4, '0');
}
