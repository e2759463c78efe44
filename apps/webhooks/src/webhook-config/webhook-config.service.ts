import { Inject, Injectable } from '@nestjs/common';
import { KeyObject } from 'node:crypto';
import { UpdateWebhookConfigRequest, WebhooksPlatformConfig } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { WEBHOOKS_CONFIG, WebhooksConfig } from '../config/webhooks-config';
import { KeyVault } from '../signing/key-vault';
import { WebhookPlatformEntity } from './entities/webhook-platform.entity';
import { WebhookConfigRepository } from './webhook-config.repository';
import { Clock } from '@paykit/persistence';

/**
 * A platform's webhook endpoint and signing key pair. The key pair is created with the
 * platform's first use of webhooks; the private key is only ever opened to sign.
 */
@Injectable()
export class WebhookConfigService {
  private readonly vault: KeyVault;
  /** Opened private keys by platform (keys are never rotated, so entries never go stale). */
  private readonly signingKeys = new Map<string, KeyObject>();

  constructor(
    private readonly platforms: WebhookConfigRepository,
    @Inject(WEBHOOKS_CONFIG) config: WebhooksConfig,
    private readonly clock: Clock,
  ) {
    this.vault = new KeyVault(config.keyEncryptionKey);
  }

  async get(platformId: string): Promise<WebhooksPlatformConfig> {
    return toPlatformConfig(await this.ensure(platformId));
  }

  async update(platformId: string, request: UpdateWebhookConfigRequest): Promise<WebhooksPlatformConfig> {
    await this.ensure(platformId);
    if (request.webhookEndpoint !== undefined) {
      const endpoint = request.webhookEndpoint === null ? null : assertDeliverableUrl(request.webhookEndpoint);
      await this.platforms.setEndpoint(platformId, endpoint);
    }
    return this.get(platformId);
  }

  /** The endpoint, or undefined when the platform has none. */
  async endpointOf(platformId: string): Promise<string | undefined> {
    return this.platforms.endpointOf(platformId);
  }

  /** The platform's private signing key, opened from its sealed form once per process. */
  async signingKey(platformId: string): Promise<KeyObject> {
    const cached = this.signingKeys.get(platformId);
    if (cached) return cached;
    const row = await this.ensure(platformId);
    const key = this.vault.open(platformId, row.sealedPrivateKey, row.keyEncryptionKeyId);
    this.signingKeys.set(platformId, key);
    return key;
  }

  /** The platform's row, created with a fresh key pair on first use (concurrent first uses keep one). */
  private async ensure(platformId: string): Promise<WebhookPlatformEntity> {
    const existing = await this.platforms.findByPlatform(platformId);
    if (existing) return existing;
    const key = this.vault.generate(platformId);
    return this.platforms.insertIfAbsent({
      platformId,
      endpointUrl: null,
      publicKeyPem: key.publicKeyPem,
      sealedPrivateKey: key.sealedPrivateKey,
      keyEncryptionKeyId: key.keyEncryptionKeyId,
      updatedAt: this.clock.now(),
    });
  }
}

function toPlatformConfig(row: WebhookPlatformEntity): WebhooksPlatformConfig {
  return { ...(row.endpointUrl ? { webhookEndpoint: row.endpointUrl } : {}), webhookPublicKey: row.publicKeyPem };
}

/**
 * The contract already checked the URL's shape; this checks it the way it will be used (the
 * WHATWG parser fetch uses): http or https, a host, and no credentials. Loopback hosts are
 * allowed on purpose: developers run receivers on their own machine.
 */
export function assertDeliverableUrl(value: string): string {
  const invalid = (message: string) => ServiceError.invalidField('webhookEndpoint', message, { format: 'url' });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('webhookEndpoint must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('webhookEndpoint must use http or https');
  if (url.username || url.password) throw invalid('webhookEndpoint must not carry credentials');
  if (!url.hostname) throw invalid('webhookEndpoint must name a host');
  return url.toString();
}
