import { Injectable } from '@nestjs/common';
import { CallerContext, CreateCustomerRequest, Customer, CUSTOMERS_EVENTS, KycStatus, newId } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Outbox, TransactionRunner } from '@paykit/persistence';
import { PlatformConfigService } from '../platform-config/platform-config.service';
import { toCustomer } from './customer.mapper';
import { CustomersRepository } from './customers.repository';
import { CustomerEntity } from './entities/customer.entity';

@Injectable()
export class CustomersService {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly platformConfig: PlatformConfigService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
  ) {}

  async create(ctx: CallerContext, request: CreateCustomerRequest): Promise<Customer> {
    assertShapeMatchesType(request);
    const config = await this.platformConfig.load(ctx.platformId);
    // Regulated platforms vouch for their customers; everyone else goes through KYC/KYB.
    const initialStatus: KycStatus = config.regulated ? 'APPROVED' : 'PENDING';
    const isBusiness = request.customerType === 'BUSINESS';
    const now = new Date();
    const id = newId('Customer');
    const entity: CustomerEntity = {
      id,
      platformId: ctx.platformId,
      platformCustomerId: request.platformCustomerId ?? id.slice('Customer:'.length),
      customerType: request.customerType,
      fullName: request.fullName ?? null,
      birthDate: request.birthDate ?? null,
      nationality: request.nationality ?? null,
      email: request.email?.toLowerCase() ?? null,
      phoneNumber: request.phoneNumber ?? null,
      address: request.address ? { ...request.address } : null,
      businessInfo: request.businessInfo ? { ...request.businessInfo } : null,
      kycStatus: isBusiness ? null : initialStatus,
      kybStatus: isBusiness ? initialStatus : null,
      createdAt: now,
      updatedAt: now,
    };
    const customer = toCustomer(entity);
    await this.transactions.run(async (manager) => {
      await this.customers.insert(manager, entity);
      await this.outbox.add(manager, {
        subject: CUSTOMERS_EVENTS.customerCreated,
        platformId: ctx.platformId,
        resourceId: id,
        webhookType: initialStatus === 'PENDING' ? (isBusiness ? 'CUSTOMER.KYB_PENDING' : 'CUSTOMER.KYC_PENDING') : undefined,
        data: customer,
      });
    });
    return customer;
  }

  async get(ctx: CallerContext, customerId: string): Promise<Customer> {
    const entity = await this.customers.findById(ctx.platformId, customerId);
    if (!entity) throw new ServiceError('USER_NOT_FOUND', `Customer ${customerId} not found`);
    return toCustomer(entity);
  }
}

function assertShapeMatchesType(request: CreateCustomerRequest): void {
  if (request.customerType === 'BUSINESS' && !request.businessInfo) {
    throw ServiceError.invalidField('businessInfo', 'businessInfo is required for BUSINESS customers');
  }
  if (request.customerType === 'INDIVIDUAL' && request.businessInfo) {
    throw ServiceError.invalidField('businessInfo', 'businessInfo is only accepted for BUSINESS customers');
  }
}
