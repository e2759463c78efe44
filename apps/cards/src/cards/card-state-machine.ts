import { CardState, CardTargetState } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';

/**
 * The spec's card state table, as data: each allowed PATCH transition. Anything else is
 * 409 INVALID_STATE_TRANSITION; a CLOSED card answers 409 CARD_ALREADY_CLOSED.
 */
export const CARD_TRANSITIONS: ReadonlyArray<{ from: CardState; to: CardTargetState }> = [
  { from: 'ACTIVE', to: 'FROZEN' },
  { from: 'FROZEN', to: 'ACTIVE' },
  { from: 'ACTIVE', to: 'CLOSED' },
  { from: 'FROZEN', to: 'CLOSED' },
];

export function isAllowedTransition(from: CardState, to: CardTargetState): boolean {
  return CARD_TRANSITIONS.some((t) => t.from === from && t.to === to);
}

/** Throws the spec's 409 for a state change the table does not allow. */
export function assertStateChange(from: CardState, to: CardTargetState): void {
  if (from === 'CLOSED') throw new ServiceError('CARD_ALREADY_CLOSED', 'The card is closed; its state cannot change');
  if (!isAllowedTransition(from, to)) {
    throw new ServiceError('INVALID_STATE_TRANSITION', `A card cannot go from ${from} to ${to}`, { from, to });
  }
}

/** Funding sources of a closed card are detached for good. */
export function assertFundingMutable(state: CardState): void {
  if (state === 'CLOSED') throw new ServiceError('CARD_NOT_MUTABLE', 'The card is closed; its funding sources and limit cannot change');
}
