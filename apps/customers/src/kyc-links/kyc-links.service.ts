import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CallerContext, CompleteKycLinkRequest, CUSTOMERS_EVENTS, EDD_FIELDS, KycLinkCompletion, KycLinkIssued, KycLinkState, KycLinkView, newId } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Outbox, TransactionRunner, Clock } from '@paykit/persistence';
import { toCustomer } from '../customers/customer.mapper';
import { CustomersRepository } from '../customers/customers.repository';
import { CustomersService } from '../customers/customers.service';
import { CustomerEntity } from '../customers/entities/customer.entity';
import { VerificationsService } from '../verification/verifications.service';
import { KycLinkEntity } from './entities/kyc-link.entity';
import { KycLinksRepository } from './kyc-links.repository';

/** How long a hosted verification link stays usable. */
export const KYC_LINK_TTL_MS = 24 * 3600_000;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

@Injectable()
export class KycLinksService {
  constructor(
    private readonly links: KycLinksRepository,
    private readonly customers: CustomersService,
    private readonly repository: CustomersRepository,
    private readonly verifications: VerificationsService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  /** A fresh single-use link; earlier links of the customer stay valid. */
  async create(ctx: CallerContext, customerId: string, redirectUri: string | undefined): Promise<KycLinkIssued> {
    const customer = await this.customers.requireActive(ctx, customerId);
    const pending = Object.entries(customer.contactVerification ?? {})
      .filter(([, status]) => status !== 'VERIFIED')
      .map(([channel]) => channel);
    if (pending.length > 0) {
      throw new ServiceError('CONFLICT', `Verify the customer's ${pending.join(' and ')} before issuing a KYC link`, {
        reason: 'CONTACT_NOT_VERIFIED',
        unverifiedChannels: pending,
      });
    }
    // 256 random bits: the token alone grants access to the hosted page.
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const link: KycLinkEntity = {
      id: newId('KycLink'),
      platformId: ctx.platformId,
      customerId,
      environment: ctx.environment,
      tokenHash: hashToken(token),
      redirectUri: redirectUri ?? null,
      expiresAt: new Date(now.getTime() + KYC_LINK_TTL_MS),
      usedAt: null,
      createdAt: now,
    };
    await this.links.insert(link);
    return { customerId, token, expiresAt: link.expiresAt.toISOString() };
  }

  /** What the hosted page shows. The token is the capability: no platform credentials here. */
  async open(token: string): Promise<KycLinkView> {
    const link = await this.links.findByTokenHash(hashToken(token));
    if (!link) throw new ServiceError('TOKEN_NOT_FOUND', 'This verification link does not exist');
    const customer = await this.customers.require(linkContext(link, 'kyc-page'), link.customerId);
    // The page's caller is no platform: the link's platform's time decides whether it expired.
    const now = await this.clock.nowFor(link.platformId);
    return {
      state: stateOf(link, now),
      customerType: customer.customerType,
      displayName: (customer.customerType === 'BUSINESS' ? customer.businessInfo?.legalName : customer.fullName) ?? 'customer',
      ...(link.redirectUri ? { redirectUri: link.redirectUri } : {}),
      expiresAt: link.expiresAt.toISOString(),
      missingEddFields: customer.customerType === 'INDIVIDUAL' ? EDD_FIELDS.filter((field) => customer[field] === null) : [],
    };
  }

  /**
   * The hosted page's submit: records the EDD answers the customer lacked, runs the verification
   * and spends the link, all in one transaction. A RESOLVE_ERRORS outcome leaves the link usable.
   */
  async complete(request: CompleteKycLinkRequest, requestId: string): Promise<KycLinkCompletion> {
    // The link's platform's time, read before the transaction (nothing else is read inside it).
    const found = await this.links.findByTokenHash(hashToken(request.token));
    const now = found ? await this.clock.nowFor(found.platformId) : this.clock.now();
    return this.transactions.run(async (manager) => {
      const link = await this.links.findByTokenHashForUpdate(manager, hashToken(request.token));
      if (!link) throw new ServiceError('TOKEN_NOT_FOUND', 'This verification link does not exist');
      const state = stateOf(link, now);
      if (state !== 'ACTIVE') throw new ServiceError('CONFLICT', state === 'USED' ? 'This verification link was already used' : 'This verification link has expired', { state });
      const ctx = linkContext(link, requestId);
      const customer = await this.customers.require(ctx, link.customerId, manager);
      if (applyEddAnswers(customer, request)) {
        customer.updatedAt = now;
        await this.repository.save(manager, customer);
        await this.outbox.add(manager, { subject: CUSTOMERS_EVENTS.customerUpdated, platformId: ctx.platformId, resourceId: customer.id, data: toCustomer(customer) });
      }
      const verification = await this.verifications.verify(manager, ctx, customer);
      if (verification.verificationStatus !== 'RESOLVE_ERRORS') {
        await this.links.markUsed(manager, link.id);
      }
      return { ...(link.redirectUri ? { redirectUri: link.redirectUri } : {}), verification };
    });
  }
}

/** A link's state at `now`, the platform's time (a test clock may have moved it past the expiry). */
function stateOf(link: KycLinkEntity, now: Date): KycLinkState {
  if (link.usedAt) return 'USED';
  return link.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'ACTIVE';
}

/** The platform and environment that issued the link. */
function linkContext(link: KycLinkEntity, requestId: string): CallerContext {
  return { platformId: link.platformId, environment: link.environment, requestId };
}

function applyEddAnswers(customer: CustomerEntity, answers: CompleteKycLinkRequest): boolean {
  let changed = false;
  if (customer.sourceOfWealthCategories === null && answers.sourceOfWealthCategories) {
    customer.sourceOfWealthCategories = [...answers.sourceOfWealthCategories];
    changed = true;
  }
  if (customer.purposeOfAccount === null && answers.purposeOfAccount) {
    customer.purposeOfAccount = answers.purposeOfAccount;
    changed = true;
  }
  if (customer.annualIncomeRange === null && answers.annualIncomeRange) {
    customer.annualIncomeRange = answers.annualIncomeRange;
    changed = true;
  }
  return changed;
}
