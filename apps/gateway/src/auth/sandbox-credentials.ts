import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { underStartupLock } from '@paykit/persistence';
import { GatewayConfig } from '../config/gateway-config';
import { CredentialsService, IssuedToken } from './credentials.service';

export interface SandboxCredentials {
  token: IssuedToken;
  /**
   * True only when this start generated the secret (the first start): the one time it may be
   * shown. A pinned SANDBOX_TOKEN_SECRET is the operator's own and is never printed.
   */
  generated: boolean;
}

/**
 * Makes sure a sandbox platform exists to call the API with. With SANDBOX_TOKEN_ID and
 * SANDBOX_TOKEN_SECRET set, that token is (re)registered; otherwise the first start creates
 * a platform and a token and shows its secret once. Gateway replicas starting together on an
 * empty database take turns, so only the first creates the platform.
 */
export async function ensureSandboxCredentials(app: INestApplicationContext, config: GatewayConfig): Promise<SandboxCredentials | undefined> {
  return underStartupLock(app.get(DataSource), 'paykit:sandbox-credentials', () => ensureUnlocked(app.get(CredentialsService), config));
}

async function ensureUnlocked(credentials: CredentialsService, config: GatewayConfig): Promise<SandboxCredentials | undefined> {
  const platforms = await credentials.listPlatforms();
  if (config.sandboxTokenId && config.sandboxTokenSecret) {
    const existing = await credentials.findToken(config.sandboxTokenId);
    const platformId = existing?.platformId ?? platforms[0]?.id ?? (await credentials.createPlatform('Sandbox platform')).id;
    const token = await credentials.issueToken(platformId, 'sandbox', 'sandbox (from environment)', {
      tokenId: config.sandboxTokenId,
      secret: config.sandboxTokenSecret,
    });
    return { token, generated: false };
  }
  if (platforms.length > 0) return undefined;
  const platform = await credentials.createPlatform('Sandbox platform');
  return { token: await credentials.issueToken(platform.id, 'sandbox', 'first start'), generated: true };
}
