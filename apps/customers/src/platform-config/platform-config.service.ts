import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CUSTOMERS_EVENTS, CustomersPlatformConfig, PlatformCurrencyCode, SupportedCurrency, UpdatePlatformConfigRequest } from '@paykit/contracts';
import { addOutboxEvents, TransactionRunner } from '@paykit/persistence';
import { toCustomer } from '../customers/customer.mapper';
import { PlatformConfigEntity } from './entities/platform-config.entity';
import { DEFAULT_SUPPORTED_CURRENCIES, defaultUmaDomain, PROVIDER_REQUIRED_CUSTOMER_FIELDS } from './default-platform-config';
import { PlatformConfigChanges, PlatformConfigRepository } from './platform-config.repository';

@Injectable()
export class PlatformConfigService {
  constructor(
    private readonly configs: PlatformConfigRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  /** A platform's configuration; the first use stores the defaults. */
  async load(platformId: string, manager?: EntityManager): Promise<PlatformConfigEntity> {
    const existing = await this.configs.find(platformId, manager);
    if (existing) return existing;
    return this.configs.insertIfAbsent({ platformId, umaDomain: defaultUmaDomain(platformId), supportedCurrencies: DEFAULT_SUPPORTED_CURRENCIES }, manager);
  }

  async get(platformId: string): Promise<CustomersPlatformConfig> {
    return toPlatformConfig(await this.load(platformId));
  }

  /**
   * Operator settings (the regulated flag) and what `PATCH /config` changes. A new UMA domain
   * moves every customer's UMA address to it in the same transaction; `supportedCurrencies`
   * replaces the list (each currency one this deployment offers; the provider's required customer
   * fields stay the provider's).
   */
  async update(platformId: string, request: UpdatePlatformConfigRequest): Promise<CustomersPlatformConfig> {
    await this.load(platformId);
    const changes: PlatformConfigChanges = {};
    if (request.regulated !== undefined) changes.regulated = request.regulated;
    if (request.umaDomain !== undefined) changes.umaDomain = request.umaDomain.toLowerCase();
    if (request.embeddedWalletsEnabled !== undefined) changes.embeddedWalletsEnabled = request.embeddedWalletsEnabled;
    if (request.supportedCurrencies !== undefined) changes.supportedCurrencies = supportedCurrenciesFrom(request.supportedCurrencies);
    if (request.embeddedWalletConfig !== undefined) changes.embeddedWalletConfig = { ...request.embeddedWalletConfig };
    if (request.cardTokenization2faConfig !== undefined)
      changes.cardTokenization2faConfig = JSON.parse(JSON.stringify(request.cardTokenization2faConfig)) as PlatformConfigEntity['cardTokenization2faConfig'];
    if (request.feeConfigs !== undefined) changes.feeConfigs = request.feeConfigs.map((fee) => ({ ...fee, fixedFee: { ...fee.fixedFee } }));
    if (Object.keys(changes).length > 0) {
      await this.transactions.run(async (manager) => {
        const current = await this.configs.find(platformId, manager);
        if (changes.umaDomain !== undefined && current && current.umaDomain !== changes.umaDomain) {
          const moved = await this.configs.moveUmaAddresses(manager, platformId, current.umaDomain, changes.umaDomain);
          // Other services keep customers' UMA addresses (payments' receiver directory): each moved customer is announced.
          await addOutboxEvents(
            manager,
            moved.map((customer) => ({ subject: CUSTOMERS_EVENTS.customerUpdated, platformId, resourceId: customer.id, data: toCustomer(customer) })),
          );
        }
        await this.configs.update(manager, platformId, changes);
      });
    }
    return this.get(platformId);
  }
}

/** The platform's currency entries with the provider's required fields (the contract already limited codes to the offered ones). */
function supportedCurrenciesFrom(entries: NonNullable<UpdatePlatformConfigRequest['supportedCurrencies']>): SupportedCurrency[] {
  return entries.map((entry) => ({
    currencyCode: entry.currencyCode,
    minAmount: entry.minAmount,
    maxAmount: entry.maxAmount,
    requiredCounterpartyFields: entry.requiredCounterpartyFields.map((field) => ({ name: field.name, mandatory: field.mandatory })),
    providerRequiredCustomerFields: PROVIDER_REQUIRED_CUSTOMER_FIELDS[entry.currencyCode as PlatformCurrencyCode],
    enabledTransactionTypes: [...entry.enabledTransactionTypes],
  }));
}

function toPlatformConfig(config: PlatformConfigEntity): CustomersPlatformConfig {
  return {
    umaDomain: config.umaDomain,
    regulated: config.regulated,
    isRegulatedFinancialInstitution: config.regulated,
    supportedCurrencies: config.supportedCurrencies,
    embeddedWalletsEnabled: config.embeddedWalletsEnabled,
    ...(config.embeddedWalletConfig ? { embeddedWalletConfig: config.embeddedWalletConfig } : {}),
    ...(config.cardTokenization2faConfig ? { cardTokenization2faConfig: config.cardTokenization2faConfig } : {}),
    feeConfigs: config.feeConfigs ?? [],
    createdAt: new Date(config.createdAt).toISOString(),
    updatedAt: new Date(config.updatedAt).toISOString(),
  };
}
