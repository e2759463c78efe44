import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, FindOptionsWhere, IsNull, LessThan, MoreThan, Raw } from 'typeorm';
import { CardState } from '@paykit/contracts';
import { EntityReader } from '@paykit/persistence';
import { CardFundingBindingEntity } from './entities/card-funding-binding.entity';
import { CardEntity } from './entities/card.entity';
import { CardRevealEntity } from './entities/card-reveal.entity';

/** What the card network reads of a card: only what an authorization decides on. */
export interface NetworkCard {
  id: string;
  cardholderId: string;
  state: CardState;
  currencyCode: string;
  /** The first funding source, the only one authorizations use; null once closed. */
  accountId: string | null;
  /** Largest amount one authorization may take; null: no limit. */
  maxSpendPerTransaction: bigint | null;
  platformCustomerId: string | null;
}

/** Every query takes the platform first: another platform's card does not exist here. */
@Injectable()
export class CardsRepository {
  /** Authorizations arriving together read their cards in one statement (see EntityReader.findOneBatched). */
  private readonly byId: EntityReader<CardEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.byId = new EntityReader(dataSource, CardEntity, ['platformId', 'id']);
  }

  /** Batched with the other authorizations of the moment: it runs for every authorization. */
  async findForNetwork(platformId: string, id: string): Promise<NetworkCard | undefined> {
    const card = await this.byId.findOneBatched([platformId, id]);
    return card
      ? {
          id: card.id,
          cardholderId: card.cardholderId,
          state: card.state,
          currencyCode: card.currencyCode,
          accountId: card.fundingSources[0] ?? null,
          maxSpendPerTransaction: card.maxSpendPerTransaction,
          platformCustomerId: card.platformCustomerId,
        }
      : undefined;
  }

  findById(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<CardEntity | null> {
    return manager.findOne(CardEntity, { where: { platformId, id } });
  }

  /** The card row locked for the rest of the caller's transaction. */
  lockById(manager: EntityManager, platformId: string, id: string): Promise<CardEntity | null> {
    return manager.findOne(CardEntity, { where: { platformId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Newest first (`desc`, the cursor's id and below) or oldest first (`asc`, above it). */
  list(platformId: string, filter: CardFilter & { afterId?: string; ascending: boolean; limit: number }): Promise<CardEntity[]> {
    const where = cardsWhere(platformId, filter);
    return this.dataSource.manager.find(CardEntity, {
      where: filter.afterId ? { ...where, id: filter.ascending ? MoreThan(filter.afterId) : LessThan(filter.afterId) } : where,
      order: { id: filter.ascending ? 'ASC' : 'DESC' },
      take: filter.limit,
    });
  }

  /** How many cards match the filter on all pages. */
  count(platformId: string, filter: CardFilter): Promise<number> {
    return this.dataSource.manager.count(CardEntity, { where: cardsWhere(platformId, filter) });
  }

  async insert(manager: EntityManager, card: CardEntity): Promise<void> {
    await manager.insert(CardEntity, card);
  }

  async save(manager: EntityManager, card: CardEntity): Promise<void> {
    await manager.update(
      CardEntity,
      { platformId: card.platformId, id: card.id },
      {
        state: card.state,
        stateReason: card.stateReason,
        fundingSources: card.fundingSources,
        maxSpendPerTransaction: card.maxSpendPerTransaction,
        updatedAt: card.updatedAt,
        closedAt: card.closedAt,
      },
    );
  }

  /** Sets the card's details seed unless one exists; answers the seed the card has. */
  async ensureDetailsSeed(platformId: string, id: string, seed: string): Promise<string> {
    await this.dataSource.manager.update(CardEntity, { platformId, id, detailsSeed: IsNull() }, { detailsSeed: seed });
    return (await this.findById(platformId, id))!.detailsSeed!;
  }

  async insertReveal(reveal: CardRevealEntity): Promise<void> {
    await this.dataSource.manager.insert(CardRevealEntity, reveal);
  }

  /**
   * Uses a reveal token once: a conditional update, so of two concurrent redeems one wins; an
   * unknown, used or expired token answers undefined. The platform comes from the token's row.
   */
  async redeemReveal(tokenHash: string, now: Date): Promise<CardRevealEntity | undefined> {
    const result = await this.dataSource.manager.update(CardRevealEntity, { tokenHash, redeemedAt: IsNull(), expiresAt: MoreThan(now) }, { redeemedAt: now });
    if ((result.affected ?? 0) === 0) return undefined;
    return (await this.dataSource.manager.findOne(CardRevealEntity, { where: { tokenHash } })) ?? undefined;
  }

  /** Activation of a PROCESSING card; false when it is no longer PROCESSING. */
  async activateIfProcessing(manager: EntityManager, platformId: string, id: string, now: Date): Promise<boolean> {
    const result = await manager.update(CardEntity, { platformId, id, state: 'PROCESSING' }, { state: 'ACTIVE', updatedAt: now });
    return (result.affected ?? 0) > 0;
  }

  /** Replaces the live bindings: the old ones are detached (kept as history), the new ones bound in order. */
  async bind(manager: EntityManager, platformId: string, cardId: string, accountIds: string[], now: Date): Promise<void> {
    await this.detachAll(manager, cardId, now);
    if (accountIds.length === 0) return;
    await manager.insert(
      CardFundingBindingEntity,
      accountIds.map((accountId, position) => ({ cardId, platformId, accountId, position, boundAt: now, detachedAt: null })),
    );
  }

  async detachAll(manager: EntityManager, cardId: string, now: Date): Promise<void> {
    await manager.update(CardFundingBindingEntity, { cardId, detachedAt: IsNull() }, { detachedAt: now });
  }
}

/** What GET /cards filters on (the cursor and order aside). */
export interface CardFilter {
  cardholderId?: string;
  state?: CardState;
  accountId?: string;
  platformCardId?: string;
}

function cardsWhere(platformId: string, filter: CardFilter): FindOptionsWhere<CardEntity> {
  return {
    platformId,
    ...(filter.cardholderId ? { cardholderId: filter.cardholderId } : {}),
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.platformCardId ? { platformCardId: filter.platformCardId } : {}),
    ...(filter.accountId ? { fundingSources: Raw((column) => `${column} @> ARRAY[:accountId]::text[]`, { accountId: filter.accountId }) } : {}),
  };
}
