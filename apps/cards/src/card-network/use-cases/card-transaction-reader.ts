import { Injectable } from '@nestjs/common';
import { CallerContext, CardTransaction, ListCardTransactionsRequest, Page, SearchCardTransactionsRequest } from '@paykit/contracts';
import { decodeCursor, idCursor, pageLimit, toPage } from '@paykit/persistence';
import { cardNotFound } from '../../cards/cards.errors';
import { CardsRepository, NetworkCard } from '../../cards/cards.repository';
import { toCardTransaction } from '../card-transaction.mapper';
import { CardTransactionsRepository } from '../card-transactions.repository';
import { CardTransactionEntity } from '../entities/card-transaction.entity';
import { transactionNotFound } from './issuer-rules';

const CARD_TRANSACTION_CURSOR = idCursor('CardTransaction');

/** GET /cards/{id}/transactions, /card-transactions and /card-transactions/{id}, and the reads the simulators share. */
@Injectable()
export class CardTransactionReader {
  constructor(
    private readonly cards: CardsRepository,
    private readonly cardTransactions: CardTransactionsRepository,
  ) {}

  async get(ctx: CallerContext, cardTransactionId: string): Promise<CardTransaction> {
    const entity = await this.cardTransactions.findById(ctx.platformId, cardTransactionId);
    if (!entity) throw transactionNotFound(cardTransactionId);
    return toCardTransaction(entity);
  }

  async list(ctx: CallerContext, request: ListCardTransactionsRequest): Promise<Page<CardTransaction>> {
    await this.requireCard(ctx.platformId, request.cardId);
    const limit = pageLimit(request.limit);
    const rows = await this.cardTransactions.list(ctx.platformId, request.cardId, {
      status: request.status,
      beforeId: decodeCursor(request.cursor, CARD_TRANSACTION_CURSOR),
      limit: limit + 1,
    });
    return toPage(rows, limit, toCardTransaction, CARD_TRANSACTION_CURSOR);
  }

  async search(ctx: CallerContext, request: SearchCardTransactionsRequest): Promise<Page<CardTransaction>> {
    const limit = pageLimit(request.limit);
    const filter = {
      accountId: request.accountId,
      customerId: request.customerId,
      platformCustomerId: request.platformCustomerId,
      status: request.status,
      createdAfter: request.createdAfter !== undefined ? new Date(request.createdAfter) : undefined,
      createdBefore: request.createdBefore !== undefined ? new Date(request.createdBefore) : undefined,
    };
    const [rows, totalCount] = await Promise.all([
      this.cardTransactions.search(ctx.platformId, {
        ...filter,
        afterId: decodeCursor(request.cursor, CARD_TRANSACTION_CURSOR),
        ascending: request.sortOrder === 'asc',
        limit: limit + 1,
      }),
      this.cardTransactions.count(ctx.platformId, filter),
    ]);
    return { ...toPage(rows, limit, toCardTransaction, CARD_TRANSACTION_CURSOR), totalCount };
  }

  async requireCard(platformId: string, cardId: string): Promise<NetworkCard> {
    const card = await this.cards.findForNetwork(platformId, cardId);
    if (!card) throw cardNotFound(cardId);
    return card;
  }

  async requireTransactionOfCard(platformId: string, cardId: string, cardTransactionId: string): Promise<CardTransactionEntity> {
    await this.requireCard(platformId, cardId);
    const entity = await this.cardTransactions.findById(platformId, cardTransactionId);
    if (!entity || entity.cardId !== cardId) throw transactionNotFound(cardTransactionId);
    return entity;
  }
}
