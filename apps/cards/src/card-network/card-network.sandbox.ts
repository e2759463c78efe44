import { CardDeclineReason, sandboxOutcome } from '@paykit/contracts';

export type NetworkOutcome = { kind: 'DECLINE'; reason: CardDeclineReason } | { kind: 'DELAYED_PULL'; delayMs: number } | { kind: 'CONFIRMATION_FAILED' } | { kind: 'APPROVE' };

/** About 30 s (SANDBOX_TIME_SCALE shrinks it). */
export const SANDBOX_PULL_DELAY_MS = 30_000;

/**
 * The card authorization family (credit authorization advice included), last three
 * characters of `merchant.descriptor`. Any suffix not listed is approved.
 */
export const DESCRIPTOR_OUTCOMES: Readonly<Record<string, NetworkOutcome>> = {
  '002': { kind: 'DECLINE', reason: 'INSUFFICIENT_FUNDS' },
  '003': { kind: 'DECLINE', reason: 'CARD_PAUSED' },
  '005': { kind: 'DELAYED_PULL', delayMs: SANDBOX_PULL_DELAY_MS },
  '006': { kind: 'CONFIRMATION_FAILED' },
};
/** What every message gets where sandbox rules do not apply (and any suffix the table does not list). */
export const NETWORK_APPROVE: NetworkOutcome = { kind: 'APPROVE' };

export function sandboxNetworkOutcome(descriptor: string): NetworkOutcome {
  return sandboxOutcome(DESCRIPTOR_OUTCOMES, descriptor, NETWORK_APPROVE);
}
