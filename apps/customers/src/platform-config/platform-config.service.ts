import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CustomersPlatformConfig, UpdatePlatformConfigRequest } from '@paykit/contracts';
import { PlatformConfigEntity } from './entities/platform-config.entity';
import { DEFAULT_SUPPORTED_CURRENCIES, defaultUmaDomain } from './default-platform-config';
import { PlatformConfigChanges, PlatformConfigRepository } from './platform-config.repository';

@Injectable()
export class PlatformConfigService {
  constructor(private readonly configs: PlatformConfigRepository) {}

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
   * The compliance regime and the UMA domain (operator settings, no HTTP route), and whether
   * embedded wallets are provisioned (`PATCH /config`).
   */
  async update(platformId: string, request: UpdatePlatformConfigRequest): Promise<CustomersPlatformConfig> {
    await this.load(platformId);
    const changes: PlatformConfigChanges = {};
    if (request.regulated !== undefined) changes.regulated = request.regulated;
    if (request.umaDomain !== undefined) changes.umaDomain = request.umaDomain;
    if (request.embeddedWalletsEnabled !== undefined) changes.embeddedWalletsEnabled = request.embeddedWalletsEnabled;
    if (Object.keys(changes).length > 0) {
      await this.configs.update(platformId, changes);
    }
    return this.get(platformId);
  }
}

function toPlatformConfig(config: PlatformConfigEntity): CustomersPlatformConfig {
  return { umaDomain: config.umaDomain, regulated: config.regulated, supportedCurrencies: config.supportedCurrencies, embeddedWalletsEnabled: config.embeddedWalletsEnabled };
}
