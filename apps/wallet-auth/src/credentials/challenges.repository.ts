import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, returningRows } from '@paykit/persistence';

export interface OtpChallengeRow {
  id: string;
  credentialId: string;
  targetKeySealed: string | null;
  codeDigest: string;
  attempts: number;
  maxAttempts: number;
  expiresAt: Date;
  verifiedAt: Date | null;
  createdAt: Date;
}

export interface PasskeyChallengeRow {
  requestId: string;
  credentialId: string;
  challenge: string;
  clientPublicKey: string;
  expiresAt: Date;
  consumedAt: Date | null;
}

/** OTP and passkey challenges of credentials. Every query takes the platform first; expiry is judged at the platform's time (`Clock.now()`). */
@Injectable()
export class ChallengesRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  latestOtpChallenge(platformId: string, credentialId: string, manager: EntityManager | DataSource = this.dataSource): Promise<OtpChallengeRow | undefined> {
    return manager
      .query(
        `SELECT id, credential_id AS "credentialId", target_key_sealed AS "targetKeySealed", code_digest AS "codeDigest", attempts,
                max_attempts AS "maxAttempts", expires_at AS "expiresAt", verified_at AS "verifiedAt", created_at AS "createdAt"
           FROM otp_challenge WHERE platform_id = $1 AND credential_id = $2 ORDER BY created_at DESC, id DESC LIMIT 1`,
        [platformId, credentialId],
      )
      .then((rows: OtpChallengeRow[]) => rows[0]);
  }

  async insertOtpChallenge(manager: EntityManager, platformId: string, row: Omit<OtpChallengeRow, 'attempts' | 'verifiedAt'>): Promise<void> {
    await manager.query(
      `INSERT INTO otp_challenge (id, platform_id, credential_id, target_key_sealed, code_digest, max_attempts, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [row.id, platformId, row.credentialId, row.targetKeySealed, row.codeDigest, row.maxAttempts, row.expiresAt, row.createdAt],
    );
  }

  /** Counts one attempt while attempts remain; false once they are used up (bounded guessing). */
  async countOtpAttempt(platformId: string, id: string): Promise<{ attempts: number; maxAttempts: number } | undefined> {
    const rows = await returningRows<{ attempts: number; maxAttempts: number }>(
      this.dataSource,
      `UPDATE otp_challenge SET attempts = attempts + 1
        WHERE platform_id = $1 AND id = $2 AND verified_at IS NULL AND attempts < max_attempts AND expires_at > $3
        RETURNING attempts, max_attempts AS "maxAttempts"`,
      [platformId, id, this.clock.now()],
    );
    return rows[0];
  }

  /** The code was right: the challenge is spent and its target key forgotten. */
  async markOtpVerified(manager: EntityManager, platformId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `UPDATE otp_challenge SET verified_at = $3, target_key_sealed = NULL
        WHERE platform_id = $1 AND id = $2 AND verified_at IS NULL AND expires_at > $3 RETURNING id`,
      [platformId, id, this.clock.now()],
    );
    return rows.length === 1;
  }

  async insertPasskeyChallenge(platformId: string, row: Omit<PasskeyChallengeRow, 'consumedAt'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO passkey_challenge (request_id, platform_id, credential_id, challenge, client_public_key, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [row.requestId, platformId, row.credentialId, row.challenge, row.clientPublicKey, row.expiresAt],
    );
  }

  findPasskeyChallenge(platformId: string, requestId: string): Promise<PasskeyChallengeRow | undefined> {
    return this.dataSource
      .query(
        `SELECT request_id AS "requestId", credential_id AS "credentialId", challenge, client_public_key AS "clientPublicKey",
                expires_at AS "expiresAt", consumed_at AS "consumedAt"
           FROM passkey_challenge WHERE platform_id = $1 AND request_id = $2`,
        [platformId, requestId],
      )
      .then((rows: PasskeyChallengeRow[]) => rows[0]);
  }

  async consumePasskeyChallenge(manager: EntityManager, platformId: string, requestId: string): Promise<boolean> {
    const rows = await returningRows<{ request_id: string }>(
      manager,
      `UPDATE passkey_challenge SET consumed_at = $3 WHERE platform_id = $1 AND request_id = $2 AND consumed_at IS NULL AND expires_at > $3 RETURNING request_id`,
      [platformId, requestId, this.clock.now()],
    );
    return rows.length === 1;
  }

  async isOidcTokenUsed(tokenDigest: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(`SELECT 1 FROM oidc_token_use WHERE token_digest = $1`, [tokenDigest]);
    return rows.length > 0;
  }

  /** Records an OIDC token's use; false when it was seen before (a replay). */
  async recordOidcToken(manager: EntityManager, platformId: string, tokenDigest: string, expiresAt: Date): Promise<boolean> {
    const rows = await returningRows<{ token_digest: string }>(
      manager,
      `INSERT INTO oidc_token_use (token_digest, platform_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (token_digest) DO NOTHING RETURNING token_digest`,
      [tokenDigest, platformId, expiresAt],
    );
    return rows.length === 1;
  }
}
