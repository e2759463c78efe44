import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CallerContext, ContactChannel, ContactCodeSent, Customer, CUSTOMERS_EVENTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, Outbox, TransactionRunner } from '@paykit/persistence';
import { SandboxRules } from '@paykit/runtime';
import { toCustomer } from '../customers/customer.mapper';
import { CustomersRepository } from '../customers/customers.repository';
import { CustomersService } from '../customers/customers.service';
import { CustomerEntity } from '../customers/entities/customer.entity';
import { ContactCodesRepository } from './contact-codes.repository';
import { SANDBOX_CONTACT_CODE } from './contact-verification.sandbox';
import { ContactCodeEntity } from './entities/contact-code.entity';

/** A code may be re-sent this long after the previous one (429 with Retry-After before). */
export const RESEND_INTERVAL_MS = 30_000;
export const CODE_TTL_MS = 10 * 60_000;
/** After this many wrong codes the code is spent; a new one must be requested. */
export const MAX_FAILED_ATTEMPTS = 5;

function hashCode(customerId: string, channel: ContactChannel, code: string): Buffer {
  return createHash('sha256').update(`${customerId}\n${channel}\n${code}`).digest();
}

@Injectable()
export class ContactVerificationService {
  constructor(
    private readonly customers: CustomersService,
    private readonly repository: CustomersRepository,
    private readonly codes: ContactCodesRepository,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
  ) {}

  /** verify-email / verify-phone: sends (or re-sends) a one-time code to the channel. */
  send(ctx: CallerContext, customerId: string, channel: ContactChannel): Promise<ContactCodeSent> {
    return this.transactions.run(async (manager) => {
      const customer = await this.customers.requireActive(ctx, customerId, manager);
      const status = requiredStatus(customer, channel);
      if (status === 'VERIFIED') throw new ServiceError('CONFLICT', `The customer's ${channel} is already verified`);
      const now = this.clock.now().getTime();
      const previous = await this.codes.find(manager, customerId, channel);
      if (previous && previous.sentAt.getTime() + RESEND_INTERVAL_MS > now) {
        const retryAfter = Math.ceil((previous.sentAt.getTime() + RESEND_INTERVAL_MS - now) / 1000);
        throw new ServiceError(
          'RATE_LIMITED',
          `A code was sent moments ago; retry after ${retryAfter} s`,
          { retryAfterSeconds: retryAfter },
          { 'Retry-After': String(retryAfter) },
        );
      }
      // Sandbox: the fixed code and no delivery. Production has no email/SMS provider wired here.
      const code = this.sandbox.applyTo(ctx) ? SANDBOX_CONTACT_CODE : String(randomInt(0, 1_000_000)).padStart(6, '0');
      const row: ContactCodeEntity = {
        customerId,
        channel,
        destination: (channel === 'email' ? customer.email : customer.phoneNumber) ?? '',
        codeHash: hashCode(customerId, channel, code).toString('hex'),
        sentAt: new Date(now),
        expiresAt: new Date(now + CODE_TTL_MS),
        failedAttempts: 0,
      };
      await this.codes.save(manager, row);
      return {
        customerId,
        channel,
        status: 'PENDING',
        expiresAt: row.expiresAt.toISOString(),
        resendAvailableAt: new Date(now + RESEND_INTERVAL_MS).toISOString(),
      };
    });
  }

  /** verify-*\/confirm: a right code moves the channel to VERIFIED; a wrong one changes nothing but the attempt count. */
  async confirm(ctx: CallerContext, customerId: string, channel: ContactChannel, code: string): Promise<Customer> {
    const outcome = await this.transactions.run(async (manager): Promise<Customer | ServiceError> => {
      const customer = await this.customers.requireActive(ctx, customerId, manager);
      if (requiredStatus(customer, channel) === 'VERIFIED') return toCustomer(customer);
      const row = await this.codes.findForUpdate(manager, customerId, channel);
      if (!row) return invalidCode(`No code was sent to this ${channel}; POST verify-${channel} first`);
      if (row.expiresAt.getTime() <= this.clock.now().getTime()) return invalidCode('The code has expired; request a new one');
      if (row.failedAttempts >= MAX_FAILED_ATTEMPTS) return invalidCode('Too many wrong codes; request a new one');
      if (!timingSafeEqual(hashCode(customerId, channel, code), Buffer.from(row.codeHash, 'hex'))) {
        await this.codes.countFailedAttempt(manager, customerId, channel);
        return invalidCode('The code is not the one sent');
      }
      await this.codes.delete(manager, customerId, channel);
      customer.contactVerification = { ...customer.contactVerification, [channel]: 'VERIFIED' };
      customer.updatedAt = this.clock.now();
      await this.repository.save(manager, customer);
      const result = toCustomer(customer);
      await this.outbox.add(manager, { subject: CUSTOMERS_EVENTS.contactVerified, platformId: ctx.platformId, resourceId: customer.id, data: result });
      return result;
    });
    // Thrown after the commit, so the failed attempt is counted.
    if (outcome instanceof ServiceError) throw outcome;
    return outcome;
  }
}

function requiredStatus(customer: CustomerEntity, channel: ContactChannel) {
  const status = customer.contactVerification?.[channel];
  if (!status) {
    throw new ServiceError('CONFLICT', `The customer's provider does not require ${channel} verification`, { reason: 'CONTACT_VERIFICATION_NOT_REQUIRED' });
  }
  return status;
}

function invalidCode(message: string): ServiceError {
  return new ServiceError('INVALID_INPUT', message, { reason: 'INVALID_VERIFICATION_CODE', errors: [{ field: 'code', message }] });
}
