import { Injectable } from '@nestjs/common';
import { BeneficialOwner, CallerContext, CreateBeneficialOwnerRequest, CUSTOMERS_EVENTS, ListBeneficialOwnersRequest, newId, Page } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { decodeCursor, idCursor, Outbox, pageLimit, toPage, TransactionRunner } from '@paykit/persistence';
import { CustomersService } from '../customers/customers.service';
import { beneficialOwnerKycStatus } from './beneficial-owners.sandbox';
import { BeneficialOwnersRepository } from './beneficial-owners.repository';
import { BeneficialOwnerEntity } from './entities/beneficial-owner.entity';

const BENEFICIAL_OWNER_CURSOR = idCursor('BeneficialOwner');

export function toBeneficialOwner(entity: BeneficialOwnerEntity): BeneficialOwner {
  return {
    id: entity.id,
    customerId: entity.customerId,
    roles: entity.roles,
    ...(entity.ownershipPercentage !== null ? { ownershipPercentage: entity.ownershipPercentage } : {}),
    personalInfo: entity.personalInfo,
    kycStatus: entity.kycStatus,
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

@Injectable()
export class BeneficialOwnersService {
  constructor(
    private readonly owners: BeneficialOwnersRepository,
    private readonly customers: CustomersService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
  ) {}

  async create(ctx: CallerContext, request: CreateBeneficialOwnerRequest): Promise<BeneficialOwner> {
    const customer = await this.customers.require(ctx, request.customerId);
    if (customer.customerType !== 'BUSINESS') {
      throw ServiceError.invalidField('customerId', 'Beneficial owners, directors and officers belong to BUSINESS customers only');
    }
    const info = request.personalInfo;
    const now = new Date();
    const entity: BeneficialOwnerEntity = {
      id: newId('BeneficialOwner'),
      platformId: ctx.platformId,
      customerId: customer.id,
      roles: [...request.roles],
      ownershipPercentage: request.ownershipPercentage ?? null,
      personalInfo: {
        firstName: info.firstName,
        lastName: info.lastName,
        birthDate: info.birthDate,
        nationality: info.nationality,
        ...(info.email !== undefined ? { email: info.email.toLowerCase() } : {}),
        ...(info.phoneNumber !== undefined ? { phoneNumber: info.phoneNumber } : {}),
        ...(info.address !== undefined ? { address: { ...info.address } } : {}),
        ...(info.title !== undefined ? { title: info.title } : {}),
      },
      // The owner's KYC runs on registration (sandbox table by last name; production stays PENDING).
      kycStatus: ctx.environment === 'sandbox' ? beneficialOwnerKycStatus(info.lastName) : 'PENDING',
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

  async get(ctx: CallerContext, id: string): Promise<BeneficialOwner> {
    const entity = await this.owners.findById(ctx.platformId, id);
    if (!entity) throw new ServiceError('BENEFICIAL_OWNER_NOT_FOUND', `Beneficial owner ${id} not found`);
    return toBeneficialOwner(entity);
  }

  async list(ctx: CallerContext, request: ListBeneficialOwnersRequest): Promise<Page<BeneficialOwner>> {
    if (request.customerId) await this.customers.require(ctx, request.customerId);
    const limit = pageLimit(request.limit);
    const beforeId = decodeCursor(request.cursor, BENEFICIAL_OWNER_CURSOR);
    const rows = await this.owners.list(ctx.platformId, { customerId: request.customerId, beforeId }, limit + 1);
    return toPage(rows, limit, toBeneficialOwner, BENEFICIAL_OWNER_CURSOR);
  }
}
