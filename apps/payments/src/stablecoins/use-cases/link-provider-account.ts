import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, LinkStablecoinProviderAccountMessage, newId, StablecoinProviderAccount } from '@paykit/contracts';
import { Clock, IdempotencyStore, requestHash } from '@paykit/persistence';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../../config/payments-config';
import { CredentialVault } from '../credential-vault';
import { ProviderAccountRow, StablecoinsRepository } from '../stablecoins.repository';
import { sandboxLinkStatus, sandboxProviderAccountId } from '../stablecoins.sandbox';
import { environmentOf, toProviderAccount } from './stablecoin-resources';

/**
 * Links provider credentials. The sandbox provider verifies them by their suffix table; the
 * secret is sealed before it is stored, and the hash of the request (for Idempotency-Key replays)
 * is all that is kept of it besides. A new ACTIVE link to a provider account revokes the earlier ones.
 */
@Injectable()
export class LinkProviderAccount {
  private readonly vault: CredentialVault;

  constructor(
    private readonly stablecoins: StablecoinsRepository,
    private readonly idempotency: IdempotencyStore,
    private readonly clock: Clock,
    @Inject(PAYMENTS_CONFIG) config: PaymentsConfig,
  ) {
    this.vault = new CredentialVault(config.keyEncryptionKey);
  }

  async run(ctx: CallerContext, request: LinkStablecoinProviderAccountMessage): Promise<StablecoinProviderAccount> {
    const { idempotencyKey, ...body } = request;
    const hash = requestHash([
      'stablecoin-provider-account.link',
      body.provider,
      body.apiClientId,
      body.providerAccountId,
      createHash('sha256').update(body.apiClientSecret).digest('hex'),
    ]);
    return this.idempotency.runOnce(ctx.platformId, idempotencyKey, hash, async (manager) => {
      const now = this.clock.now();
      // Outside the sandbox this deployment has no provider adapter: the credentials cannot be verified.
      const status = ctx.environment === 'sandbox' ? sandboxLinkStatus(body.apiClientId) : 'INVALID';
      const row: ProviderAccountRow = {
        id: newId('StablecoinProviderAccount'),
        platformId: ctx.platformId,
        provider: body.provider,
        providerAccountId: body.providerAccountId ?? sandboxProviderAccountId(body.apiClientId),
        environment: environmentOf(ctx),
        status,
        apiClientId: body.apiClientId,
        sealedClientSecret: this.vault.seal(ctx.platformId, body.apiClientSecret),
        lastVerifiedAt: status === 'ACTIVE' ? now : null,
        createdAt: now,
        updatedAt: now,
      };
      await this.stablecoins.insertProviderAccount(manager, row);
      if (status === 'ACTIVE') await this.stablecoins.revokeEarlierLinks(manager, ctx.platformId, row.providerAccountId, row.id, now);
      return toProviderAccount(row);
    });
  }
}
