import { amountToWire, Card } from '@paykit/contracts';
import { CardEntity } from './entities/card.entity';

/** The Card resource exactly as the API returns it (GET, replies and webhooks alike). */
export function toCard(entity: CardEntity): Card {
  return {
    id: entity.id,
    cardholderId: entity.cardholderId,
    ...(entity.platformCardId !== null ? { platformCardId: entity.platformCardId } : {}),
    form: entity.form,
    fundingSources: [...entity.fundingSources],
    maxSpendPerTransaction: entity.maxSpendPerTransaction === null ? null : amountToWire(entity.maxSpendPerTransaction),
    state: entity.state,
    ...(entity.stateReason !== null ? { stateReason: entity.stateReason } : {}),
    last4: entity.last4,
    brand: entity.brand,
    expMonth: entity.expMonth,
    expYear: entity.expYear,
    currency: entity.currencyCode,
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}
