import { CARD_STATES, CARD_TARGET_STATES, CardState, CardTargetState } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { assertFundingMutable, assertStateChange, isAllowedTransition } from './card-state-machine';

function codeOf(action: () => void): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    return (error as ServiceError).code;
  }
}

describe('card state machine', () => {
  describe(assertStateChange.name, () => {
    // Every (from, to) pair: the spec's table allows four; CLOSED is terminal.
    const expected: Record<CardState, Record<CardTargetState, string | undefined>> = {
      PROCESSING: { FROZEN: 'INVALID_STATE_TRANSITION', ACTIVE: 'INVALID_STATE_TRANSITION', CLOSED: 'INVALID_STATE_TRANSITION' },
      ACTIVE: { FROZEN: undefined, ACTIVE: 'INVALID_STATE_TRANSITION', CLOSED: undefined },
      FROZEN: { FROZEN: 'INVALID_STATE_TRANSITION', ACTIVE: undefined, CLOSED: undefined },
      CLOSED: { FROZEN: 'CARD_ALREADY_CLOSED', ACTIVE: 'CARD_ALREADY_CLOSED', CLOSED: 'CARD_ALREADY_CLOSED' },
    };
    const rows = CARD_STATES.flatMap((from) => CARD_TARGET_STATES.map((to) => [from, to, expected[from][to] ?? 'allowed'] as const));

    it.each(rows)('%s -> %s: %s', (from, to, outcome) => {
      expect(codeOf(() => assertStateChange(from, to)) ?? 'allowed').toBe(outcome);
      expect(isAllowedTransition(from, to)).toBe(outcome === 'allowed');
    });
  });

  describe(assertFundingMutable.name, () => {
    it.each(CARD_STATES.map((state) => [state, state === 'CLOSED' ? 'CARD_NOT_MUTABLE' : 'allowed'] as const))('%s: %s', (state, outcome) => {
      expect(codeOf(() => assertFundingMutable(state)) ?? 'allowed').toBe(outcome);
    });
  });
});
