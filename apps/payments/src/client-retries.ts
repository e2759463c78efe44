import { EntityManager } from 'typeorm';
import { Clock, preparedStatement, requestHash } from '@paykit/persistence';

/**
 * Client retries of keyless money operations (see the README, "Client retries without a key"):
 * the published client libraries retry a POST by themselves, mark it with `X-Stainless-Retry-Count`
 * (the gateway passes 1 or more as `retryOf: { attempt }`) and send no Idempotency-Key of their
 * own. A keyless money operation is written with its request's fingerprint; a client's retry
 * answers the most recent operation with the same fingerprint of the last 24 hours of the
 * platform's time instead of moving the money again. Transfers keep it on their transaction
 * (`payment_transaction.request_fingerprint`), immediately executed quotes on their quote
 * (`quote.request_fingerprint`): one scheme, these helpers.
 */

/** How far back a client's retry of a keyless operation looks for the request it repeats. */
export const CLIENT_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The fingerprint of a keyless request: its operation, who sent it (the platform's API, or
 * `agent:<agentId>`: an agent's route is its own) and its validated body, without the key or the
 * retry marker. The platform is the column beside it.
 */
export function requestFingerprint(operation: string, origin: string | undefined, body: object): string {
  return requestHash({ operation, origin: origin ?? 'platform', ...body });
}

/** A client library's automatic retry: `X-Stainless-Retry-Count` 1 or more (0 or none is a first try, which always runs). */
export function isClientRetry(retryOf: { attempt: number } | undefined): boolean {
  return retryOf !== undefined && retryOf.attempt >= 1;
}

/** The earliest moment (platform time) of a request a client's retry may repeat. */
export function retryWindowStart(clock: Clock): Date {
  return new Date(clock.now().getTime() - CLIENT_RETRY_WINDOW_MS);
}

/**
 * Takes the turn of the requests with this fingerprint until the caller's transaction ends (a
 * transaction-scoped advisory lock), so a retry waits for a try of the same request still running.
 * Fingerprints name their operation, so transfers and quotes never share a turn.
 */
export async function lockFingerprint(manager: EntityManager, platformId: string, fingerprint: string): Promise<void> {
  // The key's prefix is the one the transfers took first: kept, so replicas of either release take the same turns.
  await manager.query(preparedStatement('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))'), [`payment_transaction:${platformId}:${fingerprint}`]);
}
