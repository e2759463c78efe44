import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  BeneficialOwner,
  CallerContext,
  CreateBeneficialOwnerRequest,
  CUSTOMERS_EVENTS,
  KycStatus,
  ListBeneficialOwnersRequest,
  newId,
  Page,
  PersonalInfo,
  PersonalInfoUpdateInput,
  UpdateBeneficialOwnerBody,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, decodeCursor, idCursor, Outbox, pageLimit, toPage, TransactionRunner } from '@paykit/persistence';
import { SandboxRules } from '@paykit/runtime';
import { CustomersService } from '../customers/customers.service';
import { CustomerEntity } from '../customers/entities/customer.entity';
import { PlatformConfigService } from '../platform-config/platform-config.service';
import { beneficialOwnerKycStatus } from './beneficial-owners.sandbox';
import { BeneficialOwnersRepository } from './beneficial-owners.repository';
import { BeneficialOwnerEntity } from './entities/beneficial-owner.entity';

const BENEFICIAL_OWNER_CURSOR = idCursor('BeneficialOwner');

export function toBeneficialOwner(entity: BeneficialOwnerEntity): BeneficialOwner {
  const { identifier, ...personalInfo } = entity.personalInfo;
  return {
    id: entity.id,
    customerId: entity.customerId,
    roles: entity.roles,
    ownershipPercentage: entity.ownershipPercentage ?? 0,
    // The full identifier is kept for verification only; answers show its last four characters.
    personalInfo: { ...personalInfo, ...(identifier !== undefined ? { identifier: maskIdentifier(identifier) } : {}) },
    kycStatus: entity.kycStatus,
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

/**
 * `•••••6789`: as many dots as hidden characters (at least four hidden), then the last four.
 * Counted in code points: cutting through a surrogate pair would leave text no JSON column stores.
 */
export function maskIdentifier(identifier: string): string {
  const characters = Array.from(identifier);
  const visible = characters.length > 8 ? 4 : Math.max(0, characters.length - 4);
  return '•'.repeat(characters.length - visible) + characters.slice(characters.length - visible).join('');
}

/** The stored personal details from a create body or merged with a PATCH (only given fields change). */
function personalInfoFrom(info: PersonalInfoUpdateInput, base?: PersonalInfo): PersonalInfo {
  const merged: Record<string, unknown> = { ...(base ?? {}) };
  for (const [key, value] of Object.entries(info)) {
    if (value === undefined) continue;
    merged[key] = key === 'email' ? String(value).toLowerCase() : key === 'address' ? { ...(value as object) } : value;
  }
  return merged as unknown as PersonalInfo;
}

@Injectable()
export class BeneficialOwnersService {
  constructor(
    private readonly owners: BeneficialOwnersRepository,
    private readonly customers: CustomersService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
    private readonly platformConfig: PlatformConfigService,
  ) {}

  async create(ctx: CallerContext, request: CreateBeneficialOwnerRequest): Promise<BeneficialOwner> {
    const customer = await this.customers.requireActive(ctx, request.customerId);
    if (customer.customerType !== 'BUSINESS') {
      throw ServiceError.invalidField('customerId', 'Beneficial owners, directors and officers belong to BUSINESS customers only');
    }
    const info = request.personalInfo;
    const now = this.clock.now();
    const entity: BeneficialOwnerEntity = {
      id: newId('BeneficialOwner'),
      platformId: ctx.platformId,
      customerId: customer.id,
      roles: [...request.roles],
      ownershipPercentage: request.ownershipPercentage ?? 0,
      personalInfo: personalInfoFrom(info),
      kycStatus: await this.kycStatusOf(ctx, customer, info.lastName),
      createdAt: now,
      updatedAt: now,
    };
    const owner = toBeneficialOwner(entity);
    await this.transactions.run(async (manager) => {
      await this.owners.insert(manager, entity);
      await this.outbox.add(manager, { subject: CUSTOMERS_EVENTS.beneficialOwnerCreated, platformId: ctx.platformId, resourceId: entity.id, data: owner });
    });
    return owner;
  }

  /**
   * An owner's KYC on registration (or a new last name). SPEC: the sandbox table by last name at
   * once. HOSTED: owners are decided with their business, so they stay PENDING until the business is
   * APPROVED or REJECTED, and then take the table's status at once. Production stays PENDING.
   */
  private async kycStatusOf(ctx: CallerContext, business: CustomerEntity, lastName: string, manager?: EntityManager): Promise<KycStatus> {
    if (!this.sandbox.applyTo(ctx)) return 'PENDING';
    const config = await this.platformConfig.load(ctx.platformId, manager);
    if (config.sandboxProfile === 'HOSTED' && business.kybStatus !== 'APPROVED' && business.kybStatus !== 'REJECTED') return 'PENDING';
    return beneficialOwnerKycStatus(lastName);
  }

  async get(ctx: CallerContext, id: string): Promise<BeneficialOwner> {
    return toBeneficialOwner(await this.require(ctx, id));
  }

  /**
   * PATCH /beneficial-owners/{id}: only the given fields change (personalInfo field by field, an
   * address as a whole). A changed last name is a new identity to check: in the sandbox the owner's
   * KYC is decided again from the new name.
   */
  async update(ctx: CallerContext, id: string, changes: UpdateBeneficialOwnerBody): Promise<BeneficialOwner> {
    return this.transactions.run(async (manager) => {
      const entity = await this.owners.findByIdForUpdate(manager, ctx.platformId, id);
      if (!entity) throw new ServiceError('REFERENCE_NOT_FOUND', `Beneficial owner ${id} not found`);
      const business = await this.customers.requireActive(ctx, entity.customerId, manager);
      if (changes.roles !== undefined) entity.roles = [...changes.roles];
      if (changes.ownershipPercentage !== undefined) entity.ownershipPercentage = changes.ownershipPercentage;
      if (changes.personalInfo !== undefined) {
        const renamed = changes.personalInfo.lastName !== undefined && changes.personalInfo.lastName !== entity.personalInfo.lastName;
        entity.personalInfo = personalInfoFrom(changes.personalInfo, entity.personalInfo);
        if (renamed) entity.kycStatus = await this.kycStatusOf(ctx, business, entity.personalInfo.lastName, manager);
      }
      entity.updatedAt = this.clock.now();
      await this.owners.save(manager, entity);
      const owner = toBeneficialOwner(entity);
      await this.outbox.add(manager, { subject: CUSTOMERS_EVENTS.beneficialOwnerUpdated, platformId: ctx.platformId, resourceId: entity.id, data: owner });
      return owner;
    });
  }

  /** The owner or 404 REFERENCE_NOT_FOUND (also for another platform's owner). */
  private async require(ctx: CallerContext, id: string): Promise<BeneficialOwnerEntity> {
    const entity = await this.owners.findById(ctx.platformId, id);
    if (!entity) throw new ServiceError('REFERENCE_NOT_FOUND', `Beneficial owner ${id} not found`);
    return entity;
  }

  async list(ctx: CallerContext, request: ListBeneficialOwnersRequest): Promise<Page<BeneficialOwner>> {
    if (request.customerId) await this.customers.require(ctx, request.customerId);
    const limit = pageLimit(request.limit);
    const beforeId = decodeCursor(request.cursor, BENEFICIAL_OWNER_CURSOR);
    const [rows, totalCount] = await Promise.all([
      this.owners.list(ctx.platformId, { customerId: request.customerId, beforeId }, limit + 1),
      this.owners.count(ctx.platformId, { customerId: request.customerId }),
    ]);
    return { ...toPage(rows, limit, toBeneficialOwner, BENEFICIAL_OWNER_CURSOR), totalCount };
  }
}
