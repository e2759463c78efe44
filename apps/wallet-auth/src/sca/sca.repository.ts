import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ScaFactor } from '@paykit/contracts';
import { returningRows } from '@paykit/persistence';
import { LockState } from './sca.rules';

export interface ScaFactorRow {
  id: string;
  customerId: string;
  type: 'TOTP' | 'PASSKEY';
  status: 'PENDING' | 'ACTIVE' | 'DELETED';
  secretSealed: string | null;
  secretDigest: string | null;
  enrollmentChallenge: string | null;
  credentialId: string | null;
  publicKey: string | null;
  /** A passkey's signature counter; a TOTP factor's last accepted time step. */
  counter: number;
  recoveryCodeDigests: string[];
  createdAt: Date;
}

export interface ScaChallengeRow {
  id: string;
  customerId: string;
  purpose: string;
  subjectId: string;
  factor: ScaFactor;
  availableFactors: ScaFactor[];
  bindingDigest: string;
  codeDigest: string | null;
  status: 'PENDING' | 'SATISFIED' | 'INVALIDATED';
  attempts: number;
  sentAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
}

export interface ScaResetRow {
  id: string;
  customerId: string;
  factor: ScaFactor;
  status: 'INITIATED' | 'PENDING_REVIEW' | 'LIVENESS_PASSED' | 'COMPLETED' | 'REJECTED';
  expiresAt: Date;
  createdAt: Date;
  completedAt: Date | null;
}

type Db = EntityManager | DataSource;

const FACTOR_COLUMNS = `id, customer_id AS "customerId", type, status, secret_sealed AS "secretSealed", secret_digest AS "secretDigest",
  enrollment_challenge AS "enrollmentChallenge", credential_id AS "credentialId", public_key AS "publicKey", counter::int AS counter,
  recovery_code_digests AS "recoveryCodeDigests", created_at AS "createdAt"`;
const CHALLENGE_COLUMNS = `id, customer_id AS "customerId", purpose, subject_id AS "subjectId", factor, available_factors AS "availableFactors",
  binding_digest AS "bindingDigest", code_digest AS "codeDigest", status, attempts, sent_at AS "sentAt", expires_at AS "expiresAt", created_at AS "createdAt"`;
const RESET_COLUMNS = `id, customer_id AS "customerId", factor, status, expires_at AS "expiresAt", created_at AS "createdAt", completed_at AS "completedAt"`;

/** Every query of SCA's tables; each takes the platform first. */
@Injectable()
export class ScaRepository {
  constructor(private readonly dataSource: DataSource) {}

  // ---- factors ----

  activeFactors(platformId: string, customerId: string, db: Db = this.dataSource): Promise<ScaFactorRow[]> {
    return db.query(`SELECT ${FACTOR_COLUMNS} FROM sca_factor WHERE platform_id = $1 AND customer_id = $2 AND status = 'ACTIVE' ORDER BY created_at, id`, [platformId, customerId]);
  }

  async pendingTotp(platformId: string, customerId: string, secretDigest: string): Promise<ScaFactorRow | undefined> {
    const rows: ScaFactorRow[] = await this.dataSource.query(
      `SELECT ${FACTOR_COLUMNS} FROM sca_factor WHERE platform_id = $1 AND customer_id = $2 AND type = 'TOTP' AND status = 'PENDING' AND secret_digest = $3`,
      [platformId, customerId, secretDigest],
    );
    return rows[0];
  }

  async latestPendingPasskey(platformId: string, customerId: string): Promise<ScaFactorRow | undefined> {
    const rows: ScaFactorRow[] = await this.dataSource.query(
      `SELECT ${FACTOR_COLUMNS} FROM sca_factor WHERE platform_id = $1 AND customer_id = $2 AND type = 'PASSKEY' AND status = 'PENDING' ORDER BY created_at DESC, id DESC LIMIT 1`,
      [platformId, customerId],
    );
    return rows[0];
  }

  async insertFactor(
    platformId: string,
    row: Pick<ScaFactorRow, 'id' | 'customerId' | 'type' | 'secretSealed' | 'secretDigest' | 'enrollmentChallenge' | 'createdAt'>,
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sca_factor (id, platform_id, customer_id, type, status, secret_sealed, secret_digest, enrollment_challenge, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'PENDING', $5, $6, $7, $8, $8)`,
      [row.id, platformId, row.customerId, row.type, row.secretSealed, row.secretDigest, row.enrollmentChallenge, row.createdAt],
    );
  }

  /** PENDING -> ACTIVE; false when it was confirmed already (a racing confirmation won). */
  async activateFactor(
    platformId: string,
    id: string,
    changes: { credentialId?: string; publicKey?: string; counter?: number; recoveryCodeDigests?: string[] },
    now: Date,
  ): Promise<boolean> {
    const rows = await returningRows<unknown>(
      this.dataSource,
      `UPDATE sca_factor SET status = 'ACTIVE', credential_id = COALESCE($3, credential_id), public_key = COALESCE($4, public_key), counter = COALESCE($5, counter),
              recovery_code_digests = COALESCE($6::jsonb, recovery_code_digests), enrollment_challenge = NULL, updated_at = $7
        WHERE platform_id = $1 AND id = $2 AND status = 'PENDING' RETURNING id`,
      [
        platformId,
        id,
        changes.credentialId ?? null,
        changes.publicKey ?? null,
        changes.counter ?? null,
        changes.recoveryCodeDigests ? JSON.stringify(changes.recoveryCodeDigests) : null,
        now,
      ],
    );
    return rows.length > 0;
  }

  async deleteActiveFactor(platformId: string, customerId: string, match: { type: 'TOTP' | 'PASSKEY'; credentialId?: string }, now: Date): Promise<boolean> {
    const rows = await returningRows<unknown>(
      this.dataSource,
      `UPDATE sca_factor SET status = 'DELETED', updated_at = $5
        WHERE platform_id = $1 AND customer_id = $2 AND type = $3 AND status = 'ACTIVE' AND ($4::text IS NULL OR credential_id = $4) RETURNING id`,
      [platformId, customerId, match.type, match.credentialId ?? null, now],
    );
    return rows.length > 0;
  }

  /**
   * A TOTP factor's counter is the last time step it accepted: a step is taken once, by one
   * conditional update, so a code seen in use (or sent twice at once) cannot log in again.
   */
  async claimTotpStep(platformId: string, id: string, step: number): Promise<boolean> {
    const rows = await returningRows<unknown>(
      this.dataSource,
      `UPDATE sca_factor SET counter = $3 WHERE platform_id = $1 AND id = $2 AND type = 'TOTP' AND counter < $3 RETURNING id`,
      [platformId, id, step],
    );
    return rows.length > 0;
  }

  /** Moves a passkey's signature counter forward by compare-and-set (a replayed assertion loses). */
  async advanceCounter(platformId: string, id: string, from: number, to: number): Promise<boolean> {
    const rows = await returningRows<unknown>(this.dataSource, `UPDATE sca_factor SET counter = $4 WHERE platform_id = $1 AND id = $2 AND counter = $3 RETURNING id`, [
      platformId,
      id,
      from,
      to,
    ]);
    return rows.length > 0;
  }

  // ---- challenges ----

  async insertChallenge(platformId: string, row: Omit<ScaChallengeRow, 'status' | 'attempts'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sca_challenge (id, platform_id, customer_id, purpose, subject_id, factor, available_factors, binding_digest, code_digest, status, sent_at, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, 'PENDING', $10, $11, $12)`,
      [
        row.id,
        platformId,
        row.customerId,
        row.purpose,
        row.subjectId,
        row.factor,
        JSON.stringify(row.availableFactors),
        row.bindingDigest,
        row.codeDigest,
        row.sentAt,
        row.expiresAt,
        row.createdAt,
      ],
    );
  }

  async challenge(platformId: string, customerId: string, id: string): Promise<ScaChallengeRow | undefined> {
    const rows: ScaChallengeRow[] = await this.dataSource.query(`SELECT ${CHALLENGE_COLUMNS} FROM sca_challenge WHERE platform_id = $1 AND customer_id = $2 AND id = $3`, [
      platformId,
      customerId,
      id,
    ]);
    return rows[0];
  }

  async latestPendingChallenge(platformId: string, customerId: string, subjectId: string, purposes: string[]): Promise<ScaChallengeRow | undefined> {
    const rows: ScaChallengeRow[] = await this.dataSource.query(
      `SELECT ${CHALLENGE_COLUMNS} FROM sca_challenge WHERE platform_id = $1 AND customer_id = $2 AND subject_id = $3 AND purpose = ANY($4) AND status = 'PENDING'
        ORDER BY created_at DESC, id DESC LIMIT 1`,
      [platformId, customerId, subjectId, purposes],
    );
    return rows[0];
  }

  /** Counts a wrong proof; the fifth invalidates the challenge. Answers the attempts so far. */
  async countWrongProof(platformId: string, id: string, maxAttempts: number): Promise<number> {
    const rows = await returningRows<{ attempts: number }>(
      this.dataSource,
      `UPDATE sca_challenge SET attempts = attempts + 1, status = CASE WHEN attempts + 1 >= $3 THEN 'INVALIDATED' ELSE status END
        WHERE platform_id = $1 AND id = $2 AND status = 'PENDING' RETURNING attempts`,
      [platformId, id, maxAttempts],
    );
    return rows[0]?.attempts ?? maxAttempts;
  }

  async settleChallenge(platformId: string, id: string, status: 'SATISFIED' | 'INVALIDATED', now: Date): Promise<boolean> {
    const rows = await returningRows<unknown>(
      this.dataSource,
      `UPDATE sca_challenge SET status = $3, satisfied_at = CASE WHEN $3 = 'SATISFIED' THEN $4::timestamptz ELSE NULL END WHERE platform_id = $1 AND id = $2 AND status = 'PENDING' RETURNING id`,
      [platformId, id, status, now],
    );
    return rows.length > 0;
  }

  async resent(platformId: string, id: string, codeDigest: string, now: Date): Promise<void> {
    await this.dataSource.query(`UPDATE sca_challenge SET code_digest = $3, sent_at = $4 WHERE platform_id = $1 AND id = $2 AND status = 'PENDING'`, [
      platformId,
      id,
      codeDigest,
      now,
    ]);
  }

  // ---- sessions ----

  async insertSession(platformId: string, row: { id: string; customerId: string; factor: ScaFactor; endUserIp: string | null; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.dataSource.query(`INSERT INTO sca_session (id, platform_id, customer_id, factor, end_user_ip, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      row.id,
      platformId,
      row.customerId,
      row.factor,
      row.endUserIp,
      row.createdAt,
      row.expiresAt,
    ]);
  }

  async hasActiveSession(platformId: string, customerId: string, now: Date): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM sca_session WHERE platform_id = $1 AND customer_id = $2 AND revoked_at IS NULL AND expires_at > $3 LIMIT 1`,
      [platformId, customerId, now],
    );
    return rows.length > 0;
  }

  async revokeSessions(manager: EntityManager, platformId: string, customerId: string, now: Date): Promise<void> {
    await manager.query(`UPDATE sca_session SET revoked_at = $3 WHERE platform_id = $1 AND customer_id = $2 AND revoked_at IS NULL`, [platformId, customerId, now]);
  }

  // ---- login security ----

  async lockState(platformId: string, customerId: string, db: Db = this.dataSource, forUpdate = false): Promise<LockState> {
    const rows: LockState[] = await db.query(
      `SELECT failed_attempts AS "failedAttempts", lock_level AS "lockLevel", locked_until AS "lockedUntil", suspended
         FROM sca_login_security WHERE platform_id = $1 AND customer_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [platformId, customerId],
    );
    const row = rows[0];
    return row ? { ...row, lockedUntil: row.lockedUntil ? new Date(row.lockedUntil) : null } : { failedAttempts: 0, lockLevel: 0, lockedUntil: null, suspended: false };
  }

  /** Makes sure the row exists, so a transaction can lock it before reading. */
  async ensureLockRow(manager: EntityManager, platformId: string, customerId: string, now: Date): Promise<void> {
    await manager.query(`INSERT INTO sca_login_security (platform_id, customer_id, updated_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [platformId, customerId, now]);
  }

  async saveLockState(manager: EntityManager, platformId: string, customerId: string, state: LockState, now: Date): Promise<void> {
    await manager.query(
      `UPDATE sca_login_security SET failed_attempts = $3, lock_level = $4, locked_until = $5, suspended = $6, updated_at = $7 WHERE platform_id = $1 AND customer_id = $2`,
      [platformId, customerId, state.failedAttempts, state.lockLevel, state.lockedUntil, state.suspended, now],
    );
  }

  // ---- trusted beneficiaries ----

  async isTrusted(platformId: string, externalAccountId: string): Promise<boolean> {
    const rows: Array<{ trusted: boolean }> = await this.dataSource.query(`SELECT trusted FROM sca_trusted_beneficiary WHERE platform_id = $1 AND external_account_id = $2`, [
      platformId,
      externalAccountId,
    ]);
    return rows[0]?.trusted === true;
  }

  async setTrusted(platformId: string, externalAccountId: string, customerId: string, trusted: boolean, now: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sca_trusted_beneficiary (platform_id, external_account_id, customer_id, trusted, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (platform_id, external_account_id) DO UPDATE SET trusted = EXCLUDED.trusted, updated_at = EXCLUDED.updated_at`,
      [platformId, externalAccountId, customerId, trusted, now],
    );
  }

  // ---- 2FA resets ----

  async countResetsSince(platformId: string, customerId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const rows: Array<{ count: number; oldest: Date | null }> = await this.dataSource.query(
      `SELECT count(*)::int AS count, min(created_at) AS oldest FROM sca_reset WHERE platform_id = $1 AND customer_id = $2 AND created_at > $3`,
      [platformId, customerId, since],
    );
    return { count: rows[0]?.count ?? 0, oldest: rows[0]?.oldest ? new Date(rows[0].oldest) : null };
  }

  async insertReset(platformId: string, row: Omit<ScaResetRow, 'status' | 'completedAt'> & { livenessTokenDigest: string }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sca_reset (id, platform_id, customer_id, factor, status, liveness_token_digest, expires_at, created_at) VALUES ($1, $2, $3, $4, 'INITIATED', $5, $6, $7)`,
      [row.id, platformId, row.customerId, row.factor, row.livenessTokenDigest, row.expiresAt, row.createdAt],
    );
  }

  async reset(platformId: string, customerId: string, id: string): Promise<ScaResetRow | undefined> {
    const rows: ScaResetRow[] = await this.dataSource.query(`SELECT ${RESET_COLUMNS} FROM sca_reset WHERE platform_id = $1 AND customer_id = $2 AND id = $3`, [
      platformId,
      customerId,
      id,
    ]);
    return rows[0];
  }

  async moveReset(platformId: string, id: string, from: ScaResetRow['status'][], to: ScaResetRow['status'], now: Date, manager: Db = this.dataSource): Promise<boolean> {
    const rows = await returningRows<unknown>(
      manager,
      `UPDATE sca_reset SET status = $4, completed_at = CASE WHEN $4 = 'COMPLETED' THEN $5::timestamptz ELSE NULL END
        WHERE platform_id = $1 AND id = $2 AND status = ANY($3) AND expires_at > $5 RETURNING id`,
      [platformId, id, from, to, now],
    );
    return rows.length > 0;
  }

  async deleteFactorIn(manager: EntityManager, platformId: string, customerId: string, type: 'TOTP' | 'PASSKEY', now: Date): Promise<void> {
    await manager.query(`UPDATE sca_factor SET status = 'DELETED', updated_at = $4 WHERE platform_id = $1 AND customer_id = $2 AND type = $3 AND status = 'ACTIVE'`, [
      platformId,
      customerId,
      type,
      now,
    ]);
  }
}
