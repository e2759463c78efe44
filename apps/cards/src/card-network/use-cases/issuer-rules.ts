import { Injectable } from '@nestjs/common';
import { CallerContext, CardDeclineReason, CardTransactionType } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SandboxRules } from '@paykit/runtime';
import { NetworkCard } from '../../cards/cards.repository';
import { NETWORK_APPROVE, NetworkOutcome, sandboxNetworkOutcome } from '../card-network.sandbox';
import { CardTransactionEntity } from '../entities/card-transaction.entity';
import { NetworkMessage } from './network-messages';

export const CREDIT_TYPES: ReadonlySet<CardTransactionType> = new Set(['CREDIT_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE']);
/** Messages that spend: the card's per-transaction limit applies to them. */
const SPENDING_TYPES: ReadonlySet<CardTransactionType> = new Set(['AUTHORIZATION', 'FINANCIAL_AUTHORIZATION']);

/** Where the sandbox's rules apply: the simulators, and the descriptor table's outcomes. */
@Injectable()
export class NetworkRules {
  constructor(private readonly sandbox: SandboxRules) {}

  /** The descriptor suffix table decides only where sandbox rules apply. */
  outcome(ctx: CallerContext, descriptor: string): NetworkOutcome {
    return this.sandbox.applyTo(ctx) ? sandboxNetworkOutcome(descriptor) : NETWORK_APPROVE;
  }

  assertSandbox(ctx: CallerContext): void {
    if (!this.sandbox.applyTo(ctx)) throw new ServiceError('FORBIDDEN', 'The card network simulators are sandbox only');
  }
}

/** A frozen card declines new authorizations; a card that is not (yet, or any more) usable too. */
export function stateDecline(card: NetworkCard): CardDeclineReason | undefined {
  switch (card.state) {
    case 'ACTIVE':
      return undefined;
    case 'FROZEN':
      return 'CARD_PAUSED';
    case 'CLOSED':
      return 'CARD_CLOSED';
    case 'PROCESSING':
      return 'CARD_NOT_ACTIVE';
  }
}

/** An authorization above the card's per-transaction limit is declined; exactly the limit is allowed. */
export function limitDecline(card: NetworkCard, message: NetworkMessage): CardDeclineReason | undefined {
  if (card.maxSpendPerTransaction === null || !SPENDING_TYPES.has(message.type)) return undefined;
  return message.amount > card.maxSpendPerTransaction ? 'TRANSACTION_SIZE_LIMIT_EXCEEDED' : undefined;
}

export function isOpenAuthorization(entity: CardTransactionEntity): boolean {
  return entity.type === 'AUTHORIZATION' && (entity.status === 'CONFIRMED' || entity.status === 'EXCEPTION') && entity.holdId !== null && entity.settledAt === null;
}

export function notAdjustable(entity: CardTransactionEntity, why: string): ServiceError {
  return new ServiceError('INVALID_STATE_TRANSITION', `Card transaction ${entity.id} is ${entity.status}: ${why}`, { status: entity.status });
}

export function notClearable(entity: CardTransactionEntity, why: string): ServiceError {
  return new ServiceError('INVALID_STATE_TRANSITION', `Card transaction ${entity.id} cannot be cleared: ${why}`, { status: entity.status });
}

export function transactionNotFound(id: string): ServiceError {
  return new ServiceError('TRANSACTION_NOT_FOUND', `Card transaction ${id} not found`);
}

export function confirmationFailed(): CardTransactionEntity['exception'] {
  return { urgency: 'HIGH', reason: 'CONFIRMATION_FAILED', message: 'The pull succeeded but the network confirmation reported FAILED' };
}
