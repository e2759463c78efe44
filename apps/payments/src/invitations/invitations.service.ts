import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { amountFromWire, amountToWire, CallerContext, ClaimInvitationMessage, CreateInvitationRequest, Invitation, PAYMENTS_EVENTS, tenantEnvironment } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { isUniqueViolation, Outbox, TransactionRunner, Clock } from '@paykit/persistence';
import { CurrencyCatalog, toCurrency } from '../currencies/currency-catalog';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { ReceiverLookupRepository } from '../receiver-lookup/receiver-lookup.repository';
import { parseUmaAddress } from '../receiver-lookup/uma-address';
import { InvitationEntity, InvitationsRepository } from './invitations.repository';

const DEFAULT_VALIDITY_MS = 30 * 24 * 3600 * 1000;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Where an invitee opens an invitation (the sandbox's invitation page). */
const INVITATION_BASE_URL = 'https://invite.sandbox.uma.money';

function newCode(): string {
  return Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

/**
 * UMA invitations: a customer of the platform invites someone by a code; the invitation moves
 * PENDING -> CLAIMED (once, announced as INVITATION.CLAIMED) or CANCELLED, and reads EXPIRED
 * once `expiresAt` passed unclaimed. A claim finds the code wherever it was issued (the
 * invitee's platform may be another one of this deployment); reading and cancelling are the
 * inviting platform's.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly invitations: InvitationsRepository,
    private readonly directory: ReceiverLookupRepository,
    private readonly accounts: InternalAccountsRepository,
    private readonly currencies: CurrencyCatalog,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async create(ctx: CallerContext, request: CreateInvitationRequest): Promise<Invitation> {
    const inviterUma = parseUmaAddress(request.inviterUma, 'inviterUma');
    const inviter = await this.directory.findByAddress(ctx.platformId, inviterUma);
    if (!inviter || inviter.platformId !== ctx.platformId) {
      throw new ServiceError('INVALID_UMA_ADDRESS', `inviterUma ${inviterUma} is not a customer of the platform`, {
        errors: [{ field: 'inviterUma', message: 'not a customer of the platform' }],
      });
    }
    const now = this.clock.now();
    const expiresAt = request.expiresAt ? new Date(request.expiresAt) : new Date(now.getTime() + DEFAULT_VALIDITY_MS);
    if (expiresAt <= now) throw ServiceError.invalidInput([{ field: 'expiresAt', message: 'expiresAt must be in the future' }]);
    let amountCurrency: string | null = null;
    if (request.amountToSend !== undefined) {
      // In the inviter's currency: USD when it holds USD, else its first fiat account's.
      const accounts = await this.accounts.list(ctx.platformId, { owner: 'CUSTOMER', customerId: inviter.customerId, type: 'INTERNAL_FIAT', limit: 100 });
      amountCurrency = accounts.some((a) => a.currencyCode === 'USD') ? 'USD' : (accounts[0]?.currencyCode ?? 'USD');
    }
    for (let attempt = 0; ; attempt += 1) {
      try {
        const created = await this.invitations.insert({
          code: newCode(),
          platformId: ctx.platformId,
          inviterUma,
          inviterCustomerId: inviter.customerId,
          firstName: request.firstName ?? null,
          amountToSend: request.amountToSend === undefined ? null : amountFromWire(request.amountToSend),
          amountCurrency,
          createdAt: now,
          expiresAt,
        });
        return this.toInvitation(created, now);
      } catch (error) {
        // A code drawn twice (one in 32^10): draw again.
        if (attempt >= 3 || !isUniqueViolation(error, 'pk_invitation')) throw error;
      }
    }
  }

  async get(ctx: CallerContext, code: string): Promise<Invitation> {
    const invitation = await this.invitations.findOwn(ctx.platformId, code);
    if (!invitation) throw new ServiceError('INVITATION_NOT_FOUND', `Invitation ${code} not found`);
    return this.toInvitation(invitation, this.clock.now());
  }

  async claim(ctx: CallerContext, request: ClaimInvitationMessage): Promise<Invitation> {
    const inviteeUma = parseUmaAddress(request.inviteeUma, 'inviteeUma');
    const issued = await this.invitations.findAnywhere(request.code);
    // Any platform of the deployment may claim, within the caller's environment only.
    const found = issued && tenantEnvironment(issued.platformId) === tenantEnvironment(ctx.platformId) ? issued : undefined;
    if (!found) throw new ServiceError('INVITATION_NOT_FOUND', `Invitation ${request.code} not found`);
    if (inviteeUma === found.inviterUma) throw ServiceError.invalidInput([{ field: 'inviteeUma', message: 'an inviter cannot claim its own invitation' }]);
    const now = this.clock.now();
    return this.transactions.run(async (manager) => {
      const claimed = await this.invitations.claim(manager, found.code, inviteeUma, now);
      if (!claimed) throw this.notClaimable(found, now);
      const invitation = await this.toInvitation(claimed, now);
      // Announced to the inviting platform, whoever claimed it.
      await this.outbox.add(manager, {
        subject: PAYMENTS_EVENTS.invitationClaimed,
        platformId: claimed.platformId,
        resourceId: claimed.code,
        webhookType: 'INVITATION.CLAIMED',
        data: invitation,
      });
      return invitation;
    });
  }

  async cancel(ctx: CallerContext, code: string): Promise<Invitation> {
    const now = this.clock.now();
    const cancelled = await this.invitations.cancel(ctx.platformId, code, now);
    if (cancelled) return this.toInvitation(cancelled, now);
    const found = await this.invitations.findOwn(ctx.platformId, code);
    if (!found) throw new ServiceError('INVITATION_NOT_FOUND', `Invitation ${code} not found`);
    throw this.notClaimable(found, now);
  }

  private notClaimable(invitation: InvitationEntity, now: Date): ServiceError {
    if (invitation.status === 'CLAIMED') return new ServiceError('INVITATION_ALREADY_CLAIMED', `Invitation ${invitation.code} was already claimed`);
    if (invitation.status === 'CANCELLED') return new ServiceError('INVITATION_CANCELLED', `Invitation ${invitation.code} was cancelled`);
    if (invitation.expiresAt <= now) return new ServiceError('EXPIRED', `Invitation ${invitation.code} expired at ${invitation.expiresAt.toISOString()}`);
    return new ServiceError('CONFLICT', `Invitation ${invitation.code} changed concurrently`);
  }

  private async toInvitation(entity: InvitationEntity, now: Date): Promise<Invitation> {
    const status = entity.status === 'PENDING' && entity.expiresAt <= now ? 'EXPIRED' : entity.status;
    return {
      code: entity.code,
      createdAt: entity.createdAt.toISOString(),
      ...(entity.claimedAt ? { claimedAt: entity.claimedAt.toISOString() } : {}),
      url: `${INVITATION_BASE_URL}/${entity.code}`,
      expiresAt: entity.expiresAt.toISOString(),
      inviterUma: entity.inviterUma,
      ...(entity.inviteeUma ? { inviteeUma: entity.inviteeUma } : {}),
      status,
      ...(entity.firstName ? { firstName: entity.firstName } : {}),
      ...(entity.amountToSend !== null && entity.amountCurrency !== null
        ? { amountToSend: { amount: amountToWire(entity.amountToSend), currency: toCurrency(await this.currencies.get(entity.amountCurrency)) } }
        : {}),
    };
  }
}
