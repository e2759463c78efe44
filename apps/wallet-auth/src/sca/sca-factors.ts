import { randomBytes, randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  CallerContext,
  ConfirmScaFactorRequest,
  DeleteScaFactorRequest,
  Empty,
  EnrollScaFactorRequest,
  newId,
  ScaCustomerQuery,
  ScaEnrollmentConfirm,
  ScaEnrollmentStart,
  ScaFactorList,
  ScaFactorView,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, isUniqueViolation } from '@paykit/persistence';
import { WALLET_AUTH_CONFIG, WalletAuthConfig } from '../config/wallet-auth-config';
import { base32Encode } from '../crypto/totp';
import { verifyPasskeyRegistration, WebAuthnError } from '../crypto/webauthn';
import { EnclaveKeysService } from '../keys/enclave-keys.service';
import { ScaFactorRow, ScaRepository } from './sca.repository';
import { SCA_CHALLENGE_TTL_MS } from './sca.rules';
import { ScaCustomers } from './sca-customers';
import { ScaProofs } from './sca-proofs';
import { digest, hasVerifiedPhone, invalidProof } from './sca.support';

const TOTP_ISSUER = 'Paykit';
const RECOVERY_CODES = 8;

/** Enrolled factors: SMS_OTP on the verified phone, TOTP (RFC 6238, secret sealed), one passkey. */
@Injectable()
export class ScaFactors {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly proofs: ScaProofs,
    private readonly sca: ScaRepository,
    private readonly keys: EnclaveKeysService,
    private readonly clock: Clock,
    @Inject(WALLET_AUTH_CONFIG) private readonly config: WalletAuthConfig,
  ) {}

  async listFactors(ctx: CallerContext, request: ScaCustomerQuery): Promise<ScaFactorList> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    const factors: ScaFactorView[] = hasVerifiedPhone(customer) ? [{ factor: 'SMS_OTP', name: 'Verified phone' }] : [];
    for (const row of await this.sca.activeFactors(ctx.platformId, customer.id)) {
      factors.push(row.type === 'PASSKEY' ? { factor: 'PASSKEY', credentialId: row.credentialId!, name: 'Passkey' } : { factor: 'TOTP', name: 'Authenticator app' });
    }
    return { factors };
  }

  async enrollFactor(ctx: CallerContext, request: EnrollScaFactorRequest): Promise<ScaEnrollmentStart> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    const active = await this.sca.activeFactors(ctx.platformId, customer.id);
    const now = this.clock.now();
    if (request.type === 'PASSKEY') {
      if (active.some((row) => row.type === 'PASSKEY')) {
        throw new ServiceError('PASSKEY_ALREADY_ENROLLED', 'The customer already has a passkey; delete it (DELETE /sca/factors/{credentialId}) before enrolling another');
      }
      const challenge = randomBytes(32).toString('base64url');
      await this.sca.insertFactor(ctx.platformId, {
        id: newId('ScaFactor'),
        customerId: customer.id,
        type: 'PASSKEY',
        secretSealed: null,
        secretDigest: null,
        enrollmentChallenge: challenge,
        createdAt: now,
      });
      return {
        type: 'PASSKEY',
        options: {
          challenge,
          rp: { id: this.config.rpId, name: TOTP_ISSUER },
          user: { id: Buffer.from(customer.id, 'utf8').toString('base64url'), name: customer.email ?? customer.id, displayName: customer.fullName ?? customer.id },
          pubKeyCredParams: [
            { type: 'public-key', alg: -7 },
            { type: 'public-key', alg: -257 },
          ],
          timeout: SCA_CHALLENGE_TTL_MS,
          attestation: 'none',
          authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        },
        allowedOrigins: [...this.config.allowedOrigins],
        relyingPartyId: this.config.rpId,
      };
    }
    if (active.some((row) => row.type === 'TOTP')) {
      throw new ServiceError('CONFLICT', 'The customer already has an authenticator app enrolled; reset it (POST /sca/factors/reset) to enroll another', {
        reason: 'TOTP_ALREADY_ENROLLED',
      });
    }
    const secretBytes = randomBytes(20);
    const secretBase32Encoded = base32Encode(secretBytes);
    const secret = secretBytes.toString('hex');
    await this.sca.insertFactor(ctx.platformId, {
      id: newId('ScaFactor'),
      customerId: customer.id,
      type: 'TOTP',
      // The secret is kept sealed; its digest finds the enrollment the confirmation threads back.
      secretSealed: this.keys.seal(secretBase32Encoded),
      secretDigest: digest(secret),
      enrollmentChallenge: null,
      createdAt: now,
    });
    const label = encodeURIComponent(`${TOTP_ISSUER}:${customer.email ?? customer.id}`);
    return { type: 'TOTP', secret, secretBase32Encoded, totpUri: `otpauth://totp/${label}?secret=${secretBase32Encoded}&issuer=${TOTP_ISSUER}&algorithm=SHA1&digits=6&period=30` };
  }

  async confirmFactor(ctx: CallerContext, request: ConfirmScaFactorRequest): Promise<ScaEnrollmentConfirm> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    const now = this.clock.now();
    if (request.type === 'TOTP') {
      const pending = await this.sca.pendingTotp(ctx.platformId, customer.id, digest(request.secret!));
      if (!pending) throw ServiceError.invalidInput([{ field: 'secret', message: 'secret names no TOTP enrollment of this customer (start one with POST /sca/factors)' }]);
      if (!(await this.proofs.totpProofMatches(ctx, pending, request.code!, now))) throw invalidProof('The TOTP code is not valid', 'INVALID_CODE');
      const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
      await this.activate(ctx, pending, { recoveryCodeDigests: codes.map((code) => this.keys.mac(code)) }, now);
      return { type: 'TOTP', recoveryCodes: codes };
    }
    const pending = await this.sca.latestPendingPasskey(ctx.platformId, customer.id);
    if (!pending) throw ServiceError.invalidInput([{ field: 'credential', message: 'no passkey enrollment of this customer is open (start one with POST /sca/factors)' }]);
    const origin = request.origin!;
    if (!this.config.allowedOrigins.includes(origin)) throw ServiceError.invalidInput([{ field: 'origin', message: 'origin is not one of the allowedOrigins' }]);
    let verified: Awaited<ReturnType<typeof verifyPasskeyRegistration>>;
    try {
      verified = await verifyPasskeyRegistration({
        attestation: request.credential as unknown as RegistrationResponseJSON,
        expectedChallenge: pending.enrollmentChallenge!,
        relyingParty: { rpId: this.config.rpId, allowedOrigins: [origin] },
      });
    } catch (error) {
      if (error instanceof WebAuthnError) throw invalidProof(`The passkey credential is not valid: ${error.reason}`, 'INVALID_PASSKEY');
      throw error;
    }
    await this.activate(ctx, pending, { credentialId: verified.credentialId, publicKey: Buffer.from(verified.publicKey).toString('base64url'), counter: verified.counter }, now);
    return { type: 'PASSKEY', factor: { factor: 'PASSKEY', credentialId: verified.credentialId, name: 'Passkey' } };
  }

  async deleteFactor(ctx: CallerContext, request: DeleteScaFactorRequest): Promise<Empty> {
    const customer = await this.customers.regulated(ctx, request.customerId);
    if (!(await this.sca.deleteActiveFactor(ctx.platformId, customer.id, { type: 'PASSKEY', credentialId: request.credentialId }, this.clock.now()))) {
      throw new ServiceError('REFERENCE_NOT_FOUND', `Factor ${request.credentialId} not found`);
    }
    return { ok: true };
  }

  private async activate(ctx: CallerContext, pending: ScaFactorRow, changes: Parameters<ScaRepository['activateFactor']>[2], now: Date): Promise<void> {
    try {
      if (!(await this.sca.activateFactor(ctx.platformId, pending.id, changes, now))) throw new ServiceError('CONFLICT', 'This enrollment was confirmed already');
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw pending.type === 'PASSKEY'
          ? new ServiceError('PASSKEY_ALREADY_ENROLLED', 'The customer already has a passkey')
          : new ServiceError('CONFLICT', 'The customer already has an authenticator app enrolled', { reason: 'TOTP_ALREADY_ENROLLED' });
      }
      throw error;
    }
  }
}

function recoveryCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const group = () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${group()}-${group()}-${group()}`;
}
