import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallerContext, Customer, CUSTOMERS_SUBJECTS, SignedRetryChallenge, UpdateCustomerBody, WALLET_AUTH_SUBJECTS } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { SignedRetryGateway } from './signed-retry';

/**
 * PATCH /customers/{customerId}: when the customer's email is tied to embedded wallet EMAIL_OTP
 * credentials and the body changes it, the update is a signed action of the wallet account
 * (202, then the signed retry applies it). wallet-auth then syncs the tied credentials from the
 * customer's update event. Any other update goes straight through.
 */
@Injectable()
export class CustomerEmailChangeGateway {
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
    return this.signedRetry.run(http, caller, { accountId: tied.accountId, operation: 'CUSTOMER_EMAIL_UPDATE', apply });
  }
}
