import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  BusinessInfo,
  CallerContext,
  CheckRequirementsRequest,
  EndUserTerms,
  CreateCustomerRequest,
  Customer,
  CustomerFieldsInput,
  CustomerRequirements,
  CUSTOMERS_EVENTS,
  CUSTOMER_WEBHOOK_TYPES,
  KycStatus,
  ListCustomersRequest,
  newIdAvoidingSuffixes,
  SANDBOX_CARD_ISSUANCE_SUFFIXES,
  NewEvent,
  Page,
  SignedRetryOutcome,
  UpdateCustomerBody,
  UpdateCustomerRequest,
  WALLET_AUTH_SUBJECTS,
  isScaRegulated,
} from '@paykit/contracts';
import { FieldError, ServiceError } from '@paykit/errors';
import {
  addOutboxEvents,
  Clock,
  decodeCursor,
  idCursor,
  InsertWithEvent,
  isUniqueViolation,
  Outbox,
  pageLimit,
  StatementBatcher,
  toPage,
  TransactionRunner,
} from '@paykit/persistence';
import { ContactCodesRepository } from '../contact-verification/contact-codes.repository';
import { SERVICE_CLIENT, ServiceClient, signedAction, walletAuthOverTransport } from '@paykit/transport';
import { SandboxRules } from '@paykit/runtime';
import { PlatformConfigEntity } from '../platform-config/entities/platform-config.entity';
import { PlatformConfigService } from '../platform-config/platform-config.service';
import { providerRequiredCustomerFields } from '../platform-config/default-platform-config';
import { hostedInitialStatus } from '../verification/verifications.sandbox';
import { contactVerificationFor } from './contact-requirements';
import { currentEndUserTerms, isPublishedEndUserTermsVersion } from './end-user-terms';
import { requiredFieldPaths } from './required-fields';
import { toCustomer } from './customer.mapper';
import { CustomersRepository } from './customers.repository';
import { CustomerEntity } from './entities/customer.entity';
import { normaliseUmaAddress } from './uma-address';

const CUSTOMER_CURSOR = idCursor('Customer');

const UMA_UNIQUE = 'uq_customer_platform_uma_address';
/** Creations sharing one statement, and statements at once: a burst of POSTs costs a commit per batch, not per customer. */
const MAX_CREATION_BATCH = 100;
const CREATIONS_IN_FLIGHT = 4;

@Injectable()
export class CustomersService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(CustomersService.name);
  /**
   * New customers with their creation events, group-committed: those created together share one
   * statement (measured: the statement and commit per POST were the largest share of the
   * provisioning cost). Two creations claiming one UMA address never share a batch, and a batch
   * the database refuses is retried customer by customer, so only the one in conflict fails.
   */
  private readonly creations = new StatementBatcher<InsertWithEvent<CustomerEntity>, boolean>({
    maxInFlight: CREATIONS_IN_FLIGHT,
    maxBatch: MAX_CREATION_BATCH,
    keyOf: (creation) => `${creation.entity.platformId}|${creation.entity.umaAddress}`,
    run: (batch) => this.transactions.runStatement((manager) => this.outbox.addManyWithInserts(manager, this.customers.newRow, batch)),
  });

  constructor(
    private readonly customers: CustomersRepository,
    private readonly contactCodes: ContactCodesRepository,
    private readonly platformConfig: PlatformConfigService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
  ) {}

  /** Before the database closes: creations not yet sent fail (the caller sees 503), those running finish. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.creations.close(new ServiceError('SERVICE_UNAVAILABLE', 'The customers service is stopping'));
  }

  async create(ctx: CallerContext, request: CreateCustomerRequest): Promise<Customer> {
    const config = await this.platformConfig.load(ctx.platformId);
    assertPlatformRules(request, config);
    const entity = this.newCustomer(ctx, request, config);
    const customer = toCustomer(entity);
    try {
      // The customer and its event in one statement (shared with the customers created meanwhile): atomic without a transaction.
      await this.creations.add({ entity, event: createdEventOf(ctx, entity, this.decidesAtCreation(ctx, config)) });
    } catch (error) {
      throw umaTaken(error) ?? error;
    }
    return customer;
  }

  /**
   * A new customer from a validated request (POST /customers and each bulk row): UMA address
   * checked against the platform's domain, initial KYC/KYB status from the platform's regime.
   */
  newCustomer(ctx: CallerContext, request: CreateCustomerRequest, config: PlatformConfigEntity, now = this.clock.now()): CustomerEntity {
    const id = newIdAvoidingSuffixes('Customer', SANDBOX_CARD_ISSUANCE_SUFFIXES);
    // Every customer has a UMA address: the platform's choice, or $<id's uuid>@<its UMA domain>.
    const umaAddress =
      request.umaAddress !== undefined
        ? normaliseUmaAddress(request.umaAddress, config.umaDomain)
        : `$${id.slice('Customer:'.length).toLowerCase()}@${config.umaDomain.toLowerCase()}`;
    const isBusiness = request.customerType === 'BUSINESS';
    // Regulated platforms vouch for their customers (and may state the status); everyone else goes through KYC/KYB,
    // which a sandbox caller of a HOSTED platform sees decided as the hosted sandbox decides it.
    const initialStatus: KycStatus = config.regulated ? 'APPROVED' : this.decidesAtCreation(ctx, config) ? hostedInitialStatus(request.customerType, request.fullName) : 'PENDING';
    const email = request.email?.toLowerCase() ?? null;
    const phoneNumber = request.phoneNumber ?? null;
    const entity: CustomerEntity = {
      id,
      platformId: ctx.platformId,
      platformCustomerId: request.platformCustomerId ?? id.slice('Customer:'.length),
      customerType: request.customerType,
      fullName: null,
      birthDate: null,
      nationality: null,
      email,
      phoneNumber,
      address: null,
      businessInfo: null,
      umaAddress,
      region: null,
      currencies: null,
      endUserTermsConsent: null,
      idType: null,
      identifier: null,
      countryOfIssuance: null,
      sourceOfFundsCategories: null,
      sourceOfFundsOtherDescription: null,
      sourceOfWealthCategories: null,
      sourceOfWealthOtherDescription: null,
      purposeOfAccount: null,
      purposeOfAccountOtherDescription: null,
      expectedMonthlyTransactionCount: null,
      expectedMonthlyTransactionVolume: null,
      annualIncomeRange: null,
      netWorthRange: null,
      pepStatus: null,
      contactVerification: contactVerificationFor(this.sandbox.applyTo(ctx), { email, phone: phoneNumber }, undefined),
      kycStatus: isBusiness ? null : (request.kycStatus ?? initialStatus),
      kybStatus: isBusiness ? (request.kybStatus ?? initialStatus) : null,
      deletedAt: null,
      bulkImportJobId: null,
      createdAt: now,
      updatedAt: now,
    };
    applyFields(entity, { ...request, email: undefined, phoneNumber: undefined, kycStatus: undefined, kybStatus: undefined, platformCustomerId: undefined });
    return entity;
  }

  /** Whether this caller's customers are decided at creation as the hosted sandbox decides them (HOSTED profile, sandbox caller, not regulated). */
  private decidesAtCreation(ctx: CallerContext, config: PlatformConfigEntity): boolean {
    return !config.regulated && config.sandboxProfile === 'HOSTED' && this.sandbox.applyTo(ctx);
  }

  /** GET /customers/end-user-terms: the terms version in force and where they are published. */
  endUserTerms(): EndUserTerms {
    return currentEndUserTerms();
  }

  /**
   * DELETE /customers/{id}: the customer is flagged deleted (kept with its history; GET shows
   * `isDeleted`, lists leave it out unless asked) and the deletion is announced so the services
   * holding its accounts and cards close them. A second delete answers 410 CUSTOMER_DELETED.
   */
  async delete(ctx: CallerContext, customerId: string): Promise<Customer> {
    return this.transactions.run(async (manager) => {
      const entity = await this.requireActive(ctx, customerId, manager);
      const now = this.clock.now();
      entity.deletedAt = now;
      entity.updatedAt = now;
      await this.customers.save(manager, entity);
      const customer = toCustomer(entity);
      await this.outbox.add(manager, { subject: CUSTOMERS_EVENTS.customerDeleted, platformId: ctx.platformId, resourceId: entity.id, data: customer });
      return customer;
    });
  }

  /** The created events; customers entering PENDING announce it to the platform. */
  async announceCreated(manager: EntityManager, ctx: CallerContext, entities: CustomerEntity[]): Promise<void> {
    if (entities.length === 0) return;
    const decided = this.decidesAtCreation(ctx, await this.platformConfig.load(ctx.platformId, manager));
    await addOutboxEvents(
      manager,
      entities.map((entity) => createdEventOf(ctx, entity, decided)),
      this.clock.now(),
    );
  }

  async get(ctx: CallerContext, customerId: string): Promise<Customer> {
    return toCustomer(await this.require(ctx, customerId));
  }

  /** The customer or 404 USER_NOT_FOUND (also for another platform's customer); deleted customers included. */
  async require(ctx: CallerContext, customerId: string, manager?: EntityManager): Promise<CustomerEntity> {
    const entity = manager ? await this.customers.findByIdForUpdate(manager, ctx.platformId, customerId) : await this.customers.findById(ctx.platformId, customerId);
    if (!entity) throw new ServiceError('USER_NOT_FOUND', `Customer ${customerId} not found`);
    return entity;
  }

  /** A customer that may still change or act: 410 CUSTOMER_DELETED once deleted. */
  async requireActive(ctx: CallerContext, customerId: string, manager?: EntityManager): Promise<CustomerEntity> {
    const entity = await this.require(ctx, customerId, manager);
    if (entity.deletedAt !== null) throw new ServiceError('CUSTOMER_DELETED', `Customer ${customerId} has been deleted`);
    return entity;
  }

  async list(ctx: CallerContext, request: ListCustomersRequest): Promise<Page<Customer>> {
    const limit = pageLimit(request.limit);
    const { rows, totalCount } = await this.customers.list(
      ctx.platformId,
      {
        customerType: request.customerType,
        kycStatus: request.kycStatus,
        kybStatus: request.kybStatus,
        platformCustomerId: request.platformCustomerId,
        createdAfter: request.createdAfter ? new Date(request.createdAfter) : undefined,
        createdBefore: request.createdBefore ? new Date(request.createdBefore) : undefined,
        updatedAfter: request.updatedAfter ? new Date(request.updatedAfter) : undefined,
        updatedBefore: request.updatedBefore ? new Date(request.updatedBefore) : undefined,
        region: request.region,
        currency: request.currency,
        umaAddress: request.umaAddress?.trim().toLowerCase(),
        includeDeleted: request.isIncludingDeleted === true,
        beforeId: decodeCursor(request.cursor, CUSTOMER_CURSOR),
      },
      limit + 1,
    );
    return { ...toPage(rows, limit, toCustomer, CUSTOMER_CURSOR), totalCount };
  }

  /**
   * PATCH /customers/{id}. When the customer's email is tied to embedded wallet EMAIL_OTP
   * credentials and the body changes it, the update is a signed action of the wallet account
   * (202, then the signed retry updates the customer and its tied credentials together). Any
   * other update applies at once (wallet-auth follows it from the customer's update event).
   */
  async update(ctx: CallerContext, request: UpdateCustomerRequest): Promise<SignedRetryOutcome<Customer>> {
    const { customerId, changes } = request;
    const config = await this.platformConfig.load(ctx.platformId);
    assertPlatformRules(changes, config);
    const tied = changes.email === undefined ? undefined : await this.walletTiedToAnotherEmail(ctx, customerId, changes.email);
    if (!tied) return { result: await this.applyUpdate(ctx, customerId, changes) };
    // Every other check of the update first, so its 4xx answers come before any challenge.
    await this.applyUpdate(ctx, customerId, changes, { validateOnly: true });
    return signedAction(walletAuthOverTransport(this.services), ctx, { accountId: tied.accountId, operation: 'CUSTOMER_EMAIL_UPDATE', input: request.signedRetry }, () =>
      this.changeTiedEmail(ctx, customerId, changes),
    );
  }

  /** The wallet whose EMAIL_OTP credentials are tied to the customer's email, when `email` is another address. */
  private async walletTiedToAnotherEmail(ctx: CallerContext, customerId: string, email: string): Promise<{ accountId: string } | undefined> {
    // Unknown (or another platform's) customer: the same 404 as without a wallet.
    const customer = await this.requireActive(ctx, customerId);
    const { bindings } = await this.services.request(WALLET_AUTH_SUBJECTS.getEmailBinding, { customerId: customer.id }, ctx);
    const newEmail = email.toLowerCase();
    return bindings.find((binding) => binding.email.toLowerCase() !== newEmail);
  }

  /**
   * Customer first, then its tied credentials, directly, so the answer comes with both changed.
   * This order because only it cannot be left half done: the customer's update event commits with
   * the change (outbox), and wallet-auth applies the same idempotent sync from it, so a failed
   * credential call is repaired by the event. Credential first would need a compensating call when
   * the customer update fails, and nothing would repair a failed compensation.
   */
  private async changeTiedEmail(ctx: CallerContext, customerId: string, changes: UpdateCustomerBody): Promise<Customer> {
    const customer = await this.applyUpdate(ctx, customerId, changes);
    if (customer.email === undefined) return customer;
    try {
      await this.services.request(WALLET_AUTH_SUBJECTS.updateEmailBinding, { customerId: customer.id, email: customer.email }, ctx);
    } catch (error) {
      const code = error instanceof ServiceError ? error.code : 'INTERNAL_ERROR';
      this.logger.warn(`Tied EMAIL_OTP credentials of customer ${customer.id} not updated directly (${code}); the customer's update event will update them`);
    }
    return customer;
  }

  /** Applies the given fields; with validateOnly, runs every check (constraints included) and changes nothing. */
  private async applyUpdate(ctx: CallerContext, customerId: string, changes: UpdateCustomerBody, options: { validateOnly?: boolean } = {}): Promise<Customer> {
    const config = await this.platformConfig.load(ctx.platformId);
    const umaAddress = changes.umaAddress !== undefined ? normaliseUmaAddress(changes.umaAddress, config.umaDomain) : undefined;
    try {
      return await this.transactions.run(async (manager) => {
        const entity = await this.requireActive(ctx, customerId, manager);
        if (changes.customerType !== entity.customerType) {
          throw ServiceError.invalidField('customerType', `customerType must be the customer's type (${entity.customerType})`, { enum: [entity.customerType] });
        }
        const before = { verification: entity.contactVerification, values: { email: entity.email, phone: entity.phoneNumber } };
        applyFields(entity, changes);
        if (umaAddress !== undefined) entity.umaAddress = umaAddress;
        entity.contactVerification = contactVerificationFor(this.sandbox.applyTo(ctx), { email: entity.email, phone: entity.phoneNumber }, before);
        // A changed destination needs a fresh code.
        for (const channel of ['email', 'phone'] as const) {
          if (before.values[channel] !== (channel === 'email' ? entity.email : entity.phoneNumber)) {
            await this.contactCodes.delete(manager, entity.id, channel);
          }
        }
        entity.updatedAt = this.clock.now();
        await this.customers.save(manager, entity);
        const customer = toCustomer(entity);
        // Validation only: every check (constraints included) ran; roll the change back.
        if (options.validateOnly) throw new ValidatedOnly(customer);
        await this.outbox.add(manager, { subject: CUSTOMERS_EVENTS.customerUpdated, platformId: ctx.platformId, resourceId: entity.id, data: customer });
        return customer;
      });
    } catch (error) {
      if (error instanceof ValidatedOnly) return error.customer;
      throw umaTaken(error) ?? error;
    }
  }

  /**
   * For other services' flows (external accounts, quotes, cards): the customer may transact in
   * `currencyCode` only with every field its provider requires; else 400 MISSING_MANDATORY_USER_INFO
   * naming the missing fields (completed by PATCH /customers/{id}).
   */
  async checkRequirements(ctx: CallerContext, request: CheckRequirementsRequest): Promise<CustomerRequirements> {
    const [entity, config] = await Promise.all([this.requireActive(ctx, request.customerId), this.platformConfig.load(ctx.platformId)]);
    const currency = config.supportedCurrencies.find((c) => c.currencyCode === request.currencyCode);
    if (!currency) throw new ServiceError('INVALID_CURRENCY', `${request.currencyCode} is not a supported currency of this platform`);
    const profile = this.sandbox.applyTo(ctx) ? config.sandboxProfile : 'SPEC';
    const missingFields = missingRequiredFields(entity, requiredFieldPaths(entity.customerType, providerRequiredCustomerFields(profile, currency)));
    if (missingFields.length > 0) {
      throw new ServiceError('MISSING_MANDATORY_USER_INFO', `Customer lacks information required for ${request.currencyCode}: ${missingFields.join(', ')}`, {
        currencyCode: request.currencyCode,
        missingFields,
      });
    }
    // The receiver's payer data is named as the receiver lookup named it (FULL_NAME, not fullName).
    const missingPayerData = (request.payerDataFields ?? []).filter((name) => missingRequiredFields(entity, requiredFieldPaths(entity.customerType, [name])).length > 0);
    if (missingPayerData.length > 0) {
      throw new ServiceError('MISSING_MANDATORY_USER_INFO', `The receiver asks for payer data the customer lacks: ${missingPayerData.join(', ')}`, {
        missingFields: missingPayerData,
      });
    }
    return {
      customerId: entity.id,
      platformCustomerId: entity.platformCustomerId,
      currencyCode: request.currencyCode,
      customerType: entity.customerType,
      ...(entity.kycStatus ? { kycStatus: entity.kycStatus } : {}),
      ...(entity.kybStatus ? { kybStatus: entity.kybStatus } : {}),
      feeConfigs: config.feeConfigs ?? [],
      scaRegulated: isScaRegulated(entity.address),
    };
  }
}

/** Copies the given fields onto the customer; businessInfo merges field by field (a PATCH may send only what changes). */
function applyFields(entity: CustomerEntity, changes: CustomerFieldsInput): void {
  const simple = [
    'platformCustomerId',
    'fullName',
    'birthDate',
    'nationality',
    'phoneNumber',
    'region',
    'idType',
    'identifier',
    'countryOfIssuance',
    'sourceOfFundsOtherDescription',
    'sourceOfWealthOtherDescription',
    'purposeOfAccount',
    'purposeOfAccountOtherDescription',
    'expectedMonthlyTransactionCount',
    'expectedMonthlyTransactionVolume',
    'annualIncomeRange',
    'netWorthRange',
    'pepStatus',
    'kycStatus',
    'kybStatus',
  ] as const satisfies ReadonlyArray<keyof CustomerFieldsInput & keyof CustomerEntity>;
  for (const field of simple) {
    const value = changes[field];
    if (value !== undefined) (entity as unknown as Record<string, unknown>)[field] = value;
  }
  if (changes.email !== undefined) entity.email = changes.email.toLowerCase();
  if (changes.address !== undefined) entity.address = { ...changes.address };
  if (changes.businessInfo !== undefined) entity.businessInfo = { ...(entity.businessInfo ?? {}), ...definedOnly(changes.businessInfo) } as BusinessInfo;
  if (changes.endUserTermsConsent !== undefined) entity.endUserTermsConsent = { ...changes.endUserTermsConsent };
  if (changes.currencies !== undefined) entity.currencies = [...changes.currencies];
  if (changes.sourceOfWealthCategories !== undefined) entity.sourceOfWealthCategories = [...changes.sourceOfWealthCategories];
  if (changes.sourceOfFundsCategories !== undefined) entity.sourceOfFundsCategories = [...changes.sourceOfFundsCategories];
}

/** The fields of a body part that were given (a validated body's class leaves absent fields undefined). */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/**
 * The platform-dependent rules of a create or update body, every failure listed at once: KYC/KYB
 * status is the regulated platforms' to state (others verify), currencies must be the platform's,
 * and the accepted end user terms must be a published version.
 */
export function assertPlatformRules(fields: CustomerFieldsInput, config: PlatformConfigEntity): void {
  const errors: FieldError[] = [];
  if (!config.regulated) {
    for (const field of ['kycStatus', 'kybStatus'] as const) {
      if (fields[field] !== undefined) errors.push({ field, message: `${field} is set by verification (POST /verifications); only regulated platforms state it` });
    }
  }
  const offered = config.supportedCurrencies.map((currency) => currency.currencyCode);
  (fields.currencies ?? []).forEach((code, index) => {
    if (!offered.includes(code)) errors.push({ field: `currencies.${index}`, message: `${code} is not one of the platform's supportedCurrencies`, constraint: { enum: offered } });
  });
  if (errors.length > 0) throw ServiceError.invalidInput(errors);
  const version = fields.endUserTermsConsent?.termsVersion;
  if (version !== undefined && !isPublishedEndUserTermsVersion(version)) {
    throw new ServiceError('END_USER_TERMS_VERSION_NOT_FOUND', `End user terms version ${version} does not exist (GET /customers/end-user-terms)`, {
      errors: [{ field: 'endUserTermsConsent.termsVersion', message: `unknown terms version ${version}` }],
    });
  }
}

/** The given fields (dot paths into the Customer) the customer lacks. */
export function missingRequiredFields(entity: CustomerEntity, required: string[]): string[] {
  const customer: Record<string, unknown> = { ...toCustomer(entity), identifier: entity.identifier ?? undefined };
  return required.filter((field) => {
    const value = field.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), customer);
    return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
  });
}

/**
 * A customer's created event; a customer entering PENDING announces it to the platform, and so does
 * one a HOSTED sandbox decided at creation (APPROVED or REJECTED). A regulated platform's customers
 * start APPROVED silently, as before.
 */
function createdEventOf(ctx: CallerContext, entity: CustomerEntity, decidedAtCreation = false): NewEvent<typeof CUSTOMERS_EVENTS.customerCreated> {
  const status = entity.customerType === 'BUSINESS' ? entity.kybStatus : entity.kycStatus;
  const types: Partial<Record<KycStatus, string>> = entity.customerType === 'BUSINESS' ? CUSTOMER_WEBHOOK_TYPES.KYB : CUSTOMER_WEBHOOK_TYPES.KYC;
  return {
    subject: CUSTOMERS_EVENTS.customerCreated,
    platformId: ctx.platformId,
    resourceId: entity.id,
    webhookType: status === 'PENDING' ? types.PENDING : decidedAtCreation && status ? types[status] : undefined,
    data: toCustomer(entity),
  };
}

function umaTaken(error: unknown): ServiceError | undefined {
  return isUniqueViolation(error, UMA_UNIQUE) ? new ServiceError('UMA_ADDRESS_EXISTS', 'This umaAddress belongs to another customer of the platform') : undefined;
}

/** Unwinds a validate-only update's transaction, carrying what the update would have answered. */
class ValidatedOnly extends Error {
  constructor(readonly customer: Customer) {
    super('validated only');
  }
}
