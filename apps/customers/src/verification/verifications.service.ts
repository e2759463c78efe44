import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallerContext, CUSTOMERS_EVENTS, CUSTOMER_WEBHOOK_TYPES, KycStatus, ListVerificationsRequest, newId, Page, Verification } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, decodeCursor, idCursor, Outbox, pageLimit, toPage, TransactionRunner } from '@paykit/persistence';
import { SandboxRules } from '@paykit/runtime';
import { toCustomer } from '../customers/customer.mapper';
import { CustomersRepository } from '../customers/customers.repository';
import { CustomersService } from '../customers/customers.service';
import { CustomerEntity } from '../customers/entities/customer.entity';
import { VerificationEntity } from './entities/verification.entity';
import { AlreadyDecided, decideHostedVerification, decideVerification, VerificationDecision } from './verification-decision';
import { BeneficialOwnersRepository } from '../beneficial-owners/beneficial-owners.repository';
import { beneficialOwnerKycStatus } from '../beneficial-owners/beneficial-owners.sandbox';
import { toBeneficialOwner } from '../beneficial-owners/beneficial-owners.service';
import { PlatformConfigService } from '../platform-config/platform-config.service';
import { VerificationsRepository } from './verifications.repository';

const VERIFICATION_CURSOR = idCursor('Verification');

/** The Verification resource: the record of one run (the customer's status after it is added by POST only). */
export function toVerification(record: VerificationEntity): Verification {
  return {
    id: record.id,
    customerId: record.customerId,
    verificationStatus: record.verificationStatus,
    errors: record.errors ?? [],
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

/** The webhook announcing a status; statuses without one (UNVERIFIED, HOLD: stated by regulated platforms) announce nothing. */
function kycWebhookType(isBusiness: boolean, status: KycStatus): string | undefined {
  const types: Partial<Record<KycStatus, string>> = isBusiness ? CUSTOMER_WEBHOOK_TYPES.KYB : CUSTOMER_WEBHOOK_TYPES.KYC;
  return types[status];
}

@Injectable()
export class VerificationsService {
  constructor(
    private readonly customers: CustomersService,
    private readonly repository: CustomersRepository,
    private readonly verifications: VerificationsRepository,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
    private readonly platformConfig: PlatformConfigService,
    private readonly owners: BeneficialOwnersRepository,
  ) {}

  /** POST /verifications. */
  create(ctx: CallerContext, customerId: string): Promise<Verification> {
    return this.transactions.run(async (manager) => {
      const customer = await this.customers.requireActive(ctx, customerId, manager);
      return this.verify(manager, ctx, customer);
    });
  }

  /** GET /verifications/{id}: another platform's or an unknown id is 404 REFERENCE_NOT_FOUND. */
  async get(ctx: CallerContext, verificationId: string): Promise<Verification> {
    const record = await this.verifications.findById(ctx.platformId, verificationId);
    if (!record) throw new ServiceError('REFERENCE_NOT_FOUND', `Verification ${verificationId} not found`);
    return toVerification(record);
  }

  /** GET /verifications: newest first, by customer and status. */
  async list(ctx: CallerContext, request: ListVerificationsRequest): Promise<Page<Verification>> {
    const limit = pageLimit(request.limit);
    const filter = { customerId: request.customerId, verificationStatus: request.verificationStatus };
    const [rows, totalCount] = await Promise.all([
      this.verifications.list(ctx.platformId, { ...filter, beforeId: decodeCursor(request.cursor, VERIFICATION_CURSOR) }, limit + 1),
      this.verifications.count(ctx.platformId, filter),
    ]);
    return { ...toPage(rows, limit, toVerification, VERIFICATION_CURSOR), totalCount };
  }

  /**
   * Runs a verification of a locked customer inside the caller's transaction (also used by the
   * hosted KYC page), records it, and moves the customer's status with its webhook event.
   */
  async verify(manager: EntityManager, ctx: CallerContext, customer: CustomerEntity): Promise<Verification> {
    const config = await this.platformConfig.load(ctx.platformId, manager);
    const hosted = this.sandbox.applyTo(ctx) && config.sandboxProfile === 'HOSTED';
    const decision = hosted ? await this.decideHosted(manager, ctx, customer) : decideVerification(this.sandbox.applyTo(ctx), customer);
    await this.transition(manager, ctx, customer, decision.status);
    // HOSTED: a business decided for good decides its beneficial owners at the same moment, by their last names.
    if (hosted && customer.customerType === 'BUSINESS' && (decision.status === 'APPROVED' || decision.status === 'REJECTED')) {
      await this.resolveOwners(manager, ctx, customer.id);
    }
    const now = this.clock.now();
    const record: VerificationEntity = {
      id: newId('Verification'),
      platformId: ctx.platformId,
      customerId: customer.id,
      verificationStatus: decision.verificationStatus,
      errors: decision.errors ?? [],
      createdAt: now,
      updatedAt: now,
    };
    await this.verifications.insert(manager, record);
    const verification = toVerification(record);
    await this.outbox.add(manager, {
      subject: CUSTOMERS_EVENTS.verificationUpdated,
      platformId: ctx.platformId,
      resourceId: record.id,
      webhookType: CUSTOMER_WEBHOOK_TYPES.VERIFICATION[record.verificationStatus],
      data: verification,
    });
    const statusField = customer.customerType === 'BUSINESS' ? 'kybStatus' : 'kycStatus';
    return { ...verification, [statusField]: decision.status };
  }

  /** The HOSTED decision with its evidence; a customer already decided answers 400 (the guide: "Returns 400"). */
  private async decideHosted(manager: EntityManager, ctx: CallerContext, customer: CustomerEntity): Promise<VerificationDecision> {
    const [documents, owners] = await Promise.all([
      this.verifications.evidenceDocuments(manager, ctx.platformId, customer.id),
      customer.customerType === 'BUSINESS' ? this.owners.forCustomerForUpdate(manager, ctx.platformId, customer.id) : Promise.resolve([]),
    ]);
    const decision = decideHostedVerification(customer, { documents, beneficialOwnerCount: owners.length });
    if (decision instanceof AlreadyDecided) {
      const statusField = customer.customerType === 'BUSINESS' ? 'kybStatus' : 'kycStatus';
      throw ServiceError.invalidField('customerId', `Customer ${customer.id} was already decided (${statusField} ${decision.status}): it cannot be submitted for verification`);
    }
    return decision;
  }

  /** Each beneficial owner of the business takes the status its last name's suffix gives (001 PENDING, 002 REJECTED, other APPROVED). */
  private async resolveOwners(manager: EntityManager, ctx: CallerContext, customerId: string): Promise<void> {
    for (const owner of await this.owners.forCustomerForUpdate(manager, ctx.platformId, customerId)) {
      const status = beneficialOwnerKycStatus(owner.personalInfo.lastName);
      if (owner.kycStatus === status) continue;
      owner.kycStatus = status;
      owner.updatedAt = this.clock.now();
      await this.owners.save(manager, owner);
      await this.outbox.add(manager, { subject: CUSTOMERS_EVENTS.beneficialOwnerUpdated, platformId: ctx.platformId, resourceId: owner.id, data: toBeneficialOwner(owner) });
    }
  }

  /** One status transition, one event: `CUSTOMER.KYC_*` for individuals, `CUSTOMER.KYB_*` for businesses. */
  private async transition(manager: EntityManager, ctx: CallerContext, customer: CustomerEntity, to: KycStatus): Promise<void> {
    const isBusiness = customer.customerType === 'BUSINESS';
    const from = isBusiness ? customer.kybStatus : customer.kycStatus;
    if (from === to) return;
    if (isBusiness) customer.kybStatus = to;
    else customer.kycStatus = to;
    customer.updatedAt = this.clock.now();
    await this.repository.save(manager, customer);
    await this.outbox.add(manager, {
      subject: CUSTOMERS_EVENTS.kycStatusChanged,
      platformId: ctx.platformId,
      resourceId: customer.id,
      webhookType: kycWebhookType(isBusiness, to),
      data: toCustomer(customer),
    });
  }
}
