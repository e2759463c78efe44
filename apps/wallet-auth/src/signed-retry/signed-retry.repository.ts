import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SignedOperation } from '@paykit/contracts';
import { Clock, returningRows } from '@paykit/persistence';

export interface SignedRetryChallengeRow {
  requestId: string;
  platformId: string;
  accountId: string;
  operation: SignedOperation;
  requestDigest: string;
  payloadToSign: string;
  signerPublicKey: string | null;
  context: Record<string, unknown> | null;
  expiresAt: Date;
  consumedAt: Date | null;
}

/** The challenge joined with the active session (if any) whose key the stamp names. */
export interface ChallengeWithSigner extends SignedRetryChallengeRow {
  sessionId: string | null;
  sessionCredentialId: string | null;
  now: Date;
}

const COLUMNS = `c.request_id AS "requestId", c.platform_id AS "platformId", c.account_id AS "accountId", c.operation,
  c.request_digest AS "requestDigest", c.payload_to_sign AS "payloadToSign", c.signer_public_key AS "signerPublicKey",
  c.context, c.expires_at AS "expiresAt", c.consumed_at AS "consumedAt"`;

/**
 * Signed-retry challenges. Every query takes the platform first. Expiry (of challenges and of
 * sessions) is judged at the platform's time (`Clock.now()`: its test clock may be ahead), not the
 * database's `now()`.
 */
@Injectable()
export class SignedRetryRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async insert(manager: EntityManager | DataSource, row: Omit<SignedRetryChallengeRow, 'consumedAt'>): Promise<void> {
    await manager.query(
      `INSERT INTO signed_retry_challenge (request_id, platform_id, account_id, operation, request_digest, payload_to_sign, signer_public_key, context, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        row.requestId,
        row.platformId,
        row.accountId,
        row.operation,
        row.requestDigest,
        row.payloadToSign,
        row.signerPublicKey,
        row.context ? JSON.stringify(row.context) : null,
        row.expiresAt,
      ],
    );
  }

  /** The operation a request id was issued for (a multi-leg action tells its legs apart by it). */
  async operationOf(platformId: string, requestId: string): Promise<SignedOperation | undefined> {
    const rows = await this.dataSource.query<Array<{ operation: SignedOperation }>>(`SELECT operation FROM signed_retry_challenge WHERE platform_id = $1 AND request_id = $2`, [
      platformId,
      requestId,
    ]);
    return rows[0]?.operation;
  }

  /** One round trip: the challenge, plus the active session of its account whose key is `publicKey`. */
  async findWithSigner(
    platformId: string,
    requestId: string,
    publicKey: string | null,
    manager: EntityManager | DataSource = this.dataSource,
  ): Promise<ChallengeWithSigner | undefined> {
    const rows = await manager.query<ChallengeWithSigner[]>(
      `SELECT ${COLUMNS}, s.id AS "sessionId", s.credential_id AS "sessionCredentialId", $4::timestamptz AS now
         FROM signed_retry_challenge c
         LEFT JOIN auth_session s
           ON s.account_id = c.account_id AND s.platform_id = c.platform_id AND s.public_key = $3
          AND s.revoked_at IS NULL AND s.expires_at > $4
        WHERE c.platform_id = $1 AND c.request_id = $2
        LIMIT 1`,
      [platformId, requestId, publicKey, this.clock.now()],
    );
    return rows[0];
  }

  /**
   * The whole consumption in one statement, for a retry whose stamp already verified against the
   * challenge as this process issued it: every binding, the expiry, single use and the signer (the
   * bound key, or an active session key of the account) are conditions of the UPDATE itself, so a
   * mismatch of any kind consumes nothing and returns undefined (the caller then finds out which).
   */
  async consumeVerified(
    manager: EntityManager | DataSource,
    retry: { platformId: string; requestId: string; accountId: string; operation: SignedOperation; requestDigest: string; signerPublicKey: string },
    signer: { boundKey: true } | { boundKey: false; rejectSessionOfCredential?: string },
  ): Promise<{ sessionId: string | null; sessionCredentialId: string | null } | undefined> {
    const params: unknown[] = [retry.platformId, retry.requestId, retry.accountId, retry.operation, retry.requestDigest, retry.signerPublicKey, this.clock.now()];
    const unconsumed = `c.platform_id = $1 AND c.request_id = $2 AND c.consumed_at IS NULL AND c.expires_at > $7
        AND c.account_id = $3 AND c.operation = $4 AND c.request_digest = $5`;
    if (signer.boundKey) {
      const rows = await returningRows<{ request_id: string }>(
        manager,
        `UPDATE signed_retry_challenge c SET consumed_at = $7 WHERE ${unconsumed} AND c.signer_public_key = $6 RETURNING c.request_id`,
        params,
      );
      return rows.length === 1 ? { sessionId: null, sessionCredentialId: null } : undefined;
    }
    let otherCredential = '';
    if (signer.rejectSessionOfCredential !== undefined) {
      params.push(signer.rejectSessionOfCredential);
      otherCredential = 'AND s.credential_id <> $8';
    }
    const rows = await returningRows<{ sessionId: string; sessionCredentialId: string }>(
      manager,
      `UPDATE signed_retry_challenge c SET consumed_at = $7, consumed_by_session_id = s.id
         FROM auth_session s
        WHERE ${unconsumed} AND c.signer_public_key IS NULL
          AND s.platform_id = c.platform_id AND s.account_id = c.account_id AND s.public_key = $6
          AND s.revoked_at IS NULL AND s.expires_at > $7 ${otherCredential}
        RETURNING s.id AS "sessionId", s.credential_id AS "sessionCredentialId"`,
      params,
    );
    return rows[0];
  }

  /**
   * Single use, enforced here: only the first retry flips consumed_at; a concurrent second one
   * waits on the row lock, then matches nothing.
   */
  async markConsumed(manager: EntityManager | DataSource, platformId: string, requestId: string, sessionId: string | null): Promise<boolean> {
    const rows = await returningRows<{ request_id: string }>(
      manager,
      `UPDATE signed_retry_challenge SET consumed_at = $4, consumed_by_session_id = $3
        WHERE platform_id = $1 AND request_id = $2 AND consumed_at IS NULL AND expires_at > $4
        RETURNING request_id`,
      [platformId, requestId, sessionId, this.clock.now()],
    );
    return rows.length === 1;
  }
}
