import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallerContext, Customer, CUSTOMERS_SUBJECTS, SignedRetryChallenge, UpdateCustomerBody, WALLET_AUTH_SUBJECTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { SignedRetryGateway } from './signed-retry';

/**
 * PATCH /customers/{customerId}: when the customer's email is tied to embedded wallet EMAIL_OTP
 * credentials and the body changes it, the update is a signed action of the wallet account
 * (202, then the signed retry updates the customer and its tied credentials together). Any other
 * update goes straight through (wallet-auth follows it from the customer's update event).
 */
@Injectable()
export class CustomerEmailChangeGateway {
  private readonly logger = new Logger(CustomerEmailChangeGateway.name);

  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly signedRetry: SignedRetryGateway,
  ) {}

  async update(
    http: { request: FastifyRequest; reply: FastifyReply },
    caller: CallerContext,
    customerId: string,
    changes: UpdateCustomerBody,
  ): Promise<Customer | SignedRetryChallenge> {
    const apply = () => this.services.request(CUSTOMERS_SUBJECTS.updateCustomer, { customerId, changes }, caller);
    if (changes.email === undefined) return apply();
    // Unknown (or another platform's) customer: the same 404 as without a wallet.
    const current = await this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId }, caller);
    const { bindings } = await this.services.request(WALLET_AUTH_SUBJECTS.getEmailBinding, { customerId: current.id }, caller);
    const newEmail = changes.email.toLowerCase();
    const tied = bindings.find((binding) => binding.email.toLowerCase() !== newEmail);
    if (!tied) return apply();
    // Every other check of the update first, so its 4xx answers come before any challenge.
    await this.services.request(CUSTOMERS_SUBJECTS.validateCustomerUpdate, { customerId, changes }, caller);
    return this.signedRetry.run(http, caller, {
      accountId: tied.accountId,
      operation: 'CUSTOMER_EMAIL_UPDATE',
      apply: () => this.changeTiedEmail(caller, customerId, changes),
    });
  }

  /**
   * Customer first, then its tied credentials, directly, so the answer comes with both changed.
   * This order because only it cannot be left half done: the customer's update event commits with
   * the change (outbox), and wallet-auth applies the same idempotent sync from it, so a failed
   * credential call is repaired by the event. Credential first would need a compensating call when
   * the customer update fails, and nothing would repair a failed compensation.
   */
  private async changeTiedEmail(caller: CallerContext, customerId: string, changes: UpdateCustomerBody): Promise<Customer> {
    const customer = await this.services.request(CUSTOMERS_SUBJECTS.updateCustomer, { customerId, changes }, caller);
    if (customer.email === undefined) return customer;
    try {
      await this.services.request(WALLET_AUTH_SUBJECTS.updateEmailBinding, { customerId: customer.id, email: customer.email }, caller);
    } catch (error) {
      const code = error instanceof ServiceError ? error.code : 'INTERNAL_ERROR';
      this.logger.warn(`Tied EMAIL_OTP credentials of customer ${customer.id} not updated directly (${code}); the customer's update event will update them`);
    }
    return customer;
  }
}
