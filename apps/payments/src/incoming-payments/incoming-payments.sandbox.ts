import { IncomingFailureReason } from '@paykit/contracts';
import { SANDBOX_UMA_DOMAIN } from '../receiver-lookup/receiver-lookup.sandbox';

/** A sandbox sender whose payments the platform may approve but that cannot complete: refunded to the sender. */
export interface SandboxRefundedSender {
  /** What the sender's institution shares about itself. */
  name: string;
  /** Why the approved payment fails. */
  failureReason: IncomingFailureReason;
}

/** How long after the failure the sender's refund settles (sandbox time, scaled by SANDBOX_TIME_SCALE). */
export const SANDBOX_INCOMING_REFUND_MS = 1000;

/**
 * Paykit's own sandbox trigger for `INCOMING_PAYMENT.REFUND_*` (SPEC.md and the guides define
 * none), by the local part of the sender's address on the sandbox UMA domain. One row per sender.
 */
export const SANDBOX_REFUNDED_SENDERS: Readonly<Record<string, SandboxRefundedSender>> = {
  /** Approved, then the credit to the receiver fails (OFFRAMP_FAILED); the sender is refunded. */
  '$fail.offramp.usd': { name: 'Sandbox Offramp Failure', failureReason: 'OFFRAMP_FAILED' },
};

/** The refunded sandbox sender at `address` (lowercase), if it is one. */
export function sandboxRefundedSender(address: string): SandboxRefundedSender | undefined {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1) !== SANDBOX_UMA_DOMAIN) return undefined;
  const local = address.slice(0, at);
  return Object.prototype.hasOwnProperty.call(SANDBOX_REFUNDED_SENDERS, local) ? SANDBOX_REFUNDED_SENDERS[local] : undefined;
}
