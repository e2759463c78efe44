import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CUSTOMERS_EVENTS, CustomersPlatformConfig, FeeConfig, PlatformCurrencyCode, SupportedCurrency, UpdatePlatformConfigRequest } from '@paykit/contracts';
import { addOutboxEvents, TransactionRunner } from '@paykit/persistence';
import { toCustomer } from '../customers/customer.mapper';
import { PlatformConfigEntity } from './entities/platform-config.entity';
import { DEFAULT_SUPPORTED_CURRENCIES, defaultUmaDomain, PROVIDER_REQUIRED_CUSTOMER_FIELDS, providerRequiredCustomerFields } from './default-platform-config';
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

  /** `GET /config`: a sandbox caller of a HOSTED platform sees the hosted sandbox's provider fields. */
  async get(platformId: string, sandbox = false): Promise<CustomersPlatformConfig> {
    return toPlatformConfig(await this.load(platformId), sandbox);
  }

  /**
   * Operator settings (the regulated flag) and what `PATCH /config` changes. A new UMA domain
   * moves every customer's UMA address to it in the same transaction; `supportedCurrencies`
   * replaces the list (each currency one this deployment offers; the provider's required customer
   * fields stay the provider's); `feeConfigs` merge into the current ones (mergeFeeConfigs).
   */
  async update(platformId: string, request: UpdatePlatformConfigRequest, sandbox = false): Promise<CustomersPlatformConfig> {
    await this.load(platformId);
    const changes: PlatformConfigChanges = {};
    if (request.regulated !== undefined) changes.regulated = request.regulated;
    if (request.umaDomain !== undefined) changes.umaDomain = request.umaDomain.toLowerCase();
    if (request.embeddedWalletsEnabled !== undefined) changes.embeddedWalletsEnabled = request.embeddedWalletsEnabled;
    if (request.sandboxProfile !== undefined) changes.sandboxProfile = request.sandboxProfile;
    if (request.supportedCurrencies !== undefined) changes.supportedCurrencies = supportedCurrenciesFrom(request.supportedCurrencies);
    if (request.embeddedWalletConfig !== undefined) changes.embeddedWalletConfig = { ...request.embeddedWalletConfig };
    if (request.cardTokenization2faConfig !== undefined)
      changes.cardTokenization2faConfig = JSON.parse(JSON.stringify(request.cardTokenization2faConfig)) as PlatformConfigEntity['cardTokenization2faConfig'];
    if (Object.keys(changes).length > 0 || request.feeConfigs !== undefined) {
      await this.transactions.run(async (manager) => {
        const current = await this.configs.find(platformId, manager, true);
        if (request.feeConfigs !== undefined) changes.feeConfigs = mergeFeeConfigs(current?.feeConfigs ?? [], request.feeConfigs);
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
    return this.get(platformId, sandbox);
  }
}

/**
 * `PATCH /config` fees, as the reference defines them: a merge-by-key upsert keyed by
 * (feeType, sourceCurrency); a fee whose fixed and variable parts are both 0 deactivates its key
 * (it leaves the list, which holds the active fees only).
 */
export function mergeFeeConfigs(current: FeeConfig[], changes: NonNullable<UpdatePlatformConfigRequest['feeConfigs']>): FeeConfig[] {
  const key = (fee: { feeType: string; sourceCurrency: string }) => `${fee.feeType}:${fee.sourceCurrency}`;
  const merged = new Map(current.map((fee) => [key(fee), fee]));
  for (const fee of changes) {
    if (fee.fixedFee.amount === 0 && fee.variableFeeBps === 0) merged.delete(key(fee));
    else
      merged.set(key(fee), {
        feeType: fee.feeType,
        sourceCurrency: fee.sourceCurrency,
        variableFeeBps: fee.variableFeeBps,
        fixedFee: { amount: fee.fixedFee.amount, currency: fee.fixedFee.currency },
      });
  }
  return [...merged.values()];
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

function toPlatformConfig(config: PlatformConfigEntity, sandbox: boolean): CustomersPlatformConfig {
  const profile = sandbox ? config.sandboxProfile : 'SPEC';
  return {
    umaDomain: config.umaDomain,
    regulated: config.regulated,
    isRegulatedFinancialInstitution: config.regulated,
    supportedCurrencies: config.supportedCurrencies.map((currency) => ({
      ...currency,
      providerRequiredCustomerFields: providerRequiredCustomerFields(profile, currency),
    })),
    embeddedWalletsEnabled: config.embeddedWalletsEnabled,
    sandboxProfile: config.sandboxProfile ?? 'SPEC',
    ...(config.embeddedWalletConfig ? { embeddedWalletConfig: config.embeddedWalletConfig } : {}),
    ...(config.cardTokenization2faConfig ? { cardTokenization2faConfig: config.cardTokenization2faConfig } : {}),
    feeConfigs: config.feeConfigs ?? [],
    createdAt: new Date(config.createdAt).toISOString(),
    updatedAt: new Date(config.updatedAt).toISOString(),
  };
}
