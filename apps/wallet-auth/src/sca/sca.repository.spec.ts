import { DataSource } from 'typeorm';
import { closePgliteHosts, serviceDataSourceOptions } from '@paykit/persistence';
import { RuntimeConfig } from '@paykit/runtime';
import { freshPgliteDataDir, removeDataDir } from '@paykit/testing';
import { WALLET_AUTH_DATABASE } from '../app.module';
import { ScaRepository } from './sca.repository';
import { afterFailedAttempt } from './sca.rules';

const MINE = 'Platform:mine';
const THEIRS = 'Platform:theirs';
const CUSTOMER = 'Customer:0190f1c2-7a6b-7cc1-9a2e-000000000001';
const NOW = new Date('2026-01-01T00:00:00Z');

/**
 * SCA's tables against wallet-auth's real migrations on PGlite: every row is the tenant's (another
 * platform's factor, challenge, session, trust or reset does not exist here), a challenge takes at
 * most 5 wrong proofs, and status changes are conditional on the status they leave.
 */
describe('ScaRepository on PostgreSQL (PGlite)', () => {
  let dataDir: string;
  let dataSource: DataSource;
  let sca: ScaRepository;

  beforeAll(async () => {
    dataDir = freshPgliteDataDir();
    const config = { mode: 'embedded', sandboxTimeScale: 1, embeddedDataDir: dataDir } as RuntimeConfig;
    dataSource = new DataSource(serviceDataSourceOptions(config, WALLET_AUTH_DATABASE));
    await dataSource.initialize();
    sca = new ScaRepository(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await closePgliteHosts();
    removeDataDir(dataDir);
  });

  it('keeps factors, sessions and trust per platform', async () => {
    await sca.insertFactor(MINE, {
      id: 'ScaFactor:1',
      customerId: CUSTOMER,
      type: 'TOTP',
      secretSealed: 'sealed',
      secretDigest: 'digest',
      enrollmentChallenge: null,
      createdAt: NOW,
    });
    expect(await sca.pendingTotp(THEIRS, CUSTOMER, 'digest')).toBeUndefined();
    expect(await sca.activateFactor(THEIRS, 'ScaFactor:1', {}, NOW)).toBe(false);
    expect(await sca.activateFactor(MINE, 'ScaFactor:1', { recoveryCodeDigests: ['a'] }, NOW)).toBe(true);
    expect(await sca.activateFactor(MINE, 'ScaFactor:1', {}, NOW)).toBe(false);
    expect((await sca.activeFactors(MINE, CUSTOMER)).map((row) => [row.type, row.recoveryCodeDigests])).toEqual([['TOTP', ['a']]]);
    expect(await sca.activeFactors(THEIRS, CUSTOMER)).toEqual([]);

    await sca.insertSession(MINE, { id: 'ScaSession:1', customerId: CUSTOMER, factor: 'TOTP', endUserIp: null, createdAt: NOW, expiresAt: new Date(NOW.getTime() + 1000) });
    expect(await sca.hasActiveSession(MINE, CUSTOMER, NOW)).toBe(true);
    expect(await sca.hasActiveSession(THEIRS, CUSTOMER, NOW)).toBe(false);
    expect(await sca.hasActiveSession(MINE, CUSTOMER, new Date(NOW.getTime() + 1000))).toBe(false);

    await sca.setTrusted(MINE, 'ExternalAccount:1', CUSTOMER, true, NOW);
    expect(await sca.isTrusted(MINE, 'ExternalAccount:1')).toBe(true);
    expect(await sca.isTrusted(THEIRS, 'ExternalAccount:1')).toBe(false);
  });

  it("takes each TOTP time step once (a replayed code loses), and only the tenant's", async () => {
    await sca.insertFactor(MINE, {
      id: 'ScaFactor:totp-steps',
      customerId: 'Customer:0190f1c2-7a6b-7cc1-9a2e-000000000002',
      type: 'TOTP',
      secretSealed: 'sealed',
      secretDigest: 'digest-steps',
      enrollmentChallenge: null,
      createdAt: NOW,
    });
    expect(await sca.claimTotpStep(THEIRS, 'ScaFactor:totp-steps', 56_666_667)).toBe(false);
    expect(await sca.claimTotpStep(MINE, 'ScaFactor:totp-steps', 56_666_667)).toBe(true);
    expect(await sca.claimTotpStep(MINE, 'ScaFactor:totp-steps', 56_666_667)).toBe(false);
    expect(await sca.claimTotpStep(MINE, 'ScaFactor:totp-steps', 56_666_666)).toBe(false);
    expect(await sca.claimTotpStep(MINE, 'ScaFactor:totp-steps', 56_666_668)).toBe(true);
  });

  it('invalidates a challenge at its fifth wrong proof, and settles a pending one once', async () => {
    const challenge = {
      id: 'ScaChallenge:1',
      customerId: CUSTOMER,
      purpose: 'PAYOUT',
      subjectId: 'Quote:1',
      factor: 'SMS_OTP' as const,
      availableFactors: ['SMS_OTP' as const],
      bindingDigest: 'b',
      codeDigest: 'c',
      sentAt: NOW,
      expiresAt: new Date(NOW.getTime() + 300_000),
      createdAt: NOW,
    };
    await sca.insertChallenge(MINE, challenge);
    expect(await sca.challenge(THEIRS, CUSTOMER, challenge.id)).toBeUndefined();
    const attempts = [];
    for (let i = 0; i < 5; i++) attempts.push(await sca.countWrongProof(MINE, challenge.id, 5));
    expect(attempts).toEqual([1, 2, 3, 4, 5]);
    expect((await sca.challenge(MINE, CUSTOMER, challenge.id))!.status).toBe('INVALIDATED');
    expect(await sca.settleChallenge(MINE, challenge.id, 'SATISFIED', NOW)).toBe(false);

    await sca.insertChallenge(MINE, { ...challenge, id: 'ScaChallenge:2' });
    expect(await sca.settleChallenge(THEIRS, 'ScaChallenge:2', 'SATISFIED', NOW)).toBe(false);
    expect(await sca.settleChallenge(MINE, 'ScaChallenge:2', 'SATISFIED', NOW)).toBe(true);
    expect(await sca.settleChallenge(MINE, 'ScaChallenge:2', 'SATISFIED', NOW)).toBe(false);
  });

  it('stores the lock state, and moves a reset only from the statuses it leaves, before it expires', async () => {
    await dataSource.transaction(async (manager) => {
      await sca.ensureLockRow(manager, MINE, CUSTOMER, NOW);
      let state = await sca.lockState(MINE, CUSTOMER, manager, true);
      for (let i = 0; i < 5; i++) state = afterFailedAttempt(state, NOW);
      await sca.saveLockState(manager, MINE, CUSTOMER, state, NOW);
    });
    expect(await sca.lockState(MINE, CUSTOMER)).toMatchObject({ failedAttempts: 5, lockLevel: 1, lockedUntil: new Date(NOW.getTime() + 15 * 60_000) });
    expect(await sca.lockState(THEIRS, CUSTOMER)).toEqual({ failedAttempts: 0, lockLevel: 0, lockedUntil: null, suspended: false });

    await sca.insertReset(MINE, {
      id: 'TwoFactorReset:1',
      customerId: CUSTOMER,
      factor: 'TOTP',
      expiresAt: new Date(NOW.getTime() + 60_000),
      createdAt: NOW,
      livenessTokenDigest: 'x',
    });
    expect(await sca.reset(THEIRS, CUSTOMER, 'TwoFactorReset:1')).toBeUndefined();
    expect(await sca.moveReset(MINE, 'TwoFactorReset:1', ['LIVENESS_PASSED'], 'COMPLETED', NOW)).toBe(false);
    expect(await sca.moveReset(MINE, 'TwoFactorReset:1', ['INITIATED'], 'LIVENESS_PASSED', new Date(NOW.getTime() + 60_000))).toBe(false);
    expect(await sca.moveReset(MINE, 'TwoFactorReset:1', ['INITIATED'], 'LIVENESS_PASSED', NOW)).toBe(true);
    expect(await sca.moveReset(MINE, 'TwoFactorReset:1', ['LIVENESS_PASSED'], 'COMPLETED', NOW)).toBe(true);
    expect(await sca.reset(MINE, CUSTOMER, 'TwoFactorReset:1')).toMatchObject({ status: 'COMPLETED', completedAt: NOW });
    expect(await sca.countResetsSince(MINE, CUSTOMER, new Date(NOW.getTime() - 1))).toEqual({ count: 1, oldest: NOW });
  });
});
