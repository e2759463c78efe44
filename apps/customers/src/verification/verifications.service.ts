import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallerContext, CUSTOMERS_EVENTS, CUSTOMER_WEBHOOK_TYPES, KycStatus, newId, Verification } from '@paykit/contracts';
import { Outbox, TransactionRunner } from '@paykit/persistence';
import { toCustomer } from '../customers/customer.mapper';
import { CustomersRepository } from '../customers/customers.repository';
import { CustomersService } from '../customers/customers.service';
import { CustomerEntity } from '../customers/entities/customer.entity';
import { VerificationEntity } from './entities/verification.entity';
import { decideVerification } from './verification-decision';
import { VerificationsRepository } from './verifications.repository';

@Injectable()
export class VerificationsService {
  constructor(
    private readonly customers: CustomersService,
    private readonly repository: CustomersRepository,
    private readonly verifications: VerificationsRepository,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
  ) {}

  /** POST /verifications. */
  create(ctx: CallerContext, customerId: string): Promise<Verification> {
    return this.transactions.run(async (manager) => {
      const customer = await this.customers.require(ctx, customerId, manager);
      return this.verify(manager, ctx, customer);
    });
  }

  /**
   * Runs a verification of a locked customer inside the caller's transaction (also used by the
   * hosted KYC page), records it, and moves the customer's status with its webhook event.
   */
  async verify(manager: EntityManager, ctx: CallerContext, customer: CustomerEntity): Promise<Verification> {
    const decision = decideVerification(ctx, customer);
    await this.transition(manager, ctx, customer, decision.status);
    const record: VerificationEntity = {
      id: newId('Verification'),
      platformId: ctx.platformId,
      customerId: customer.id,
      verificationStatus: decision.verificationStatus,
      errors: decision.errors ?? null,
      createdAt: new Date(),
    };
    await this.verifications.insert(manager, record);
    const statusField = customer.customerType === 'BUSINESS' ? 'kybStatus' : 'kycStatus';
    return {
      id: record.id,
      customerId: customer.id,
      verificationStatus: record.verificationStatus,
      [statusField]: decision.status,
      ...(record.errors ? { errors: record.errors } : {}),
      createdAt: record.createdAt.toISOString(),
    };
  }

  /** One status transition, one event: `CUSTOMER.KYC_*` for individuals, `CUSTOMER.KYB_*` for businesses. */
  private async transition(manager: EntityManager, ctx: CallerContext, customer: CustomerEntity, to: KycStatus): Promise<void> {
    const isBusiness = customer.customerType === 'BUSINESS';
    const from = isBusiness ? customer.kybStatus : customer.kycStatus;
    if (from === to) return;
    if (isBusiness) customer.kybStatus = to;
    else customer.kycStatus = to;
    customer.updatedAt = new Date();
    await this.repository.save(manager, customer);
    await this.outbox.add(manager, {
      subject: CUSTOMERS_EVENTS.kycStatusChanged,
      platformId: ctx.platformId,
      resourceId: customer.id,
      webhookType: (isBusiness ? CUSTOMER_WEBHOOK_TYPES.KYB : CUSTOMER_WEBHOOK_TYPES.KYC)[to],
      data: toCustomer(customer),
    });
  }
}
