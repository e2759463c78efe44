import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CallerContext, newId, RegisterStablecoinMessage, Stablecoin } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, IdempotencyStore, isUniqueViolation, requestHash } from '@paykit/persistence';
import { CurrencyCatalog } from '../../currencies/currency-catalog';
import { StablecoinRow, StablecoinsRepository } from '../stablecoins.repository';
import { registrationPath, sandboxTokenMetadata } from '../stablecoins.sandbox';
import { StablecoinReader } from './stablecoin-reader';
import { toStablecoin } from './stablecoin-resources';
import { StablecoinSteps } from './stablecoin-steps';

/**
 * Registers a coin the provider created. Its symbol becomes a currency code of the deployment
 * once it is enabled, so a symbol held by a currency or by another coin is refused (409).
 */
@Injectable()
export class RegisterStablecoin {
  constructor(
    private readonly stablecoins: StablecoinsRepository,
    private readonly reader: StablecoinReader,
    private readonly steps: StablecoinSteps,
    private readonly currencies: CurrencyCatalog,
    private readonly idempotency: IdempotencyStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async run(ctx: CallerContext, request: RegisterStablecoinMessage): Promise<Stablecoin> {
    const { idempotencyKey, ...body } = request;
    const hash = requestHash(['stablecoin.register', body]);
    const earlier = await this.idempotency.replay<Stablecoin>(this.dataSource.manager, ctx.platformId, idempotencyKey, hash);
    if (earlier) return earlier;
    const link = await this.reader.selectLink(ctx, body.stablecoinProviderAccountId);
    const metadata = sandboxTokenMetadata(body.providerTokenIdentifier);
    if (!metadata) {
      throw ServiceError.invalidField(
        'providerTokenIdentifier',
        `The provider has no token ${body.providerTokenIdentifier}: its identifiers are 3 to 8 capital letters or digits`,
        {
          pattern: '^[A-Z0-9]{3,8}$',
        },
      );
    }
    if ((await this.currencies.find(metadata.symbol)) || (await this.stablecoins.symbolHolder(metadata.symbol))) {
      throw new ServiceError('CONFLICT', `${metadata.symbol} already names a currency or a stablecoin of this deployment`, { reason: 'SYMBOL_TAKEN', symbol: metadata.symbol });
    }
    const now = this.clock.now();
    const row: StablecoinRow = {
      id: newId('Stablecoin'),
      platformId: ctx.platformId,
      providerAccountId: link.id,
      provider: link.provider,
      environment: link.environment,
      ...metadata,
      network: body.network,
      providerTokenIdentifier: body.providerTokenIdentifier,
      networkTokenIdentifier: body.networkTokenIdentifier,
      issuanceStatus: 'PENDING_REVIEW',
      serviceOperationsStatus: 'NOT_ENABLED',
      currency: null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      return await this.idempotency.runOnce(ctx.platformId, idempotencyKey, hash, async (manager) => {
        await this.stablecoins.insertStablecoin(manager, row);
        await this.steps.scheduleCoin(manager, ctx.platformId, row.id, registrationPath(ctx.environment === 'sandbox', row.providerTokenIdentifier));
        return toStablecoin(row);
      });
    } catch (error) {
      if (!isUniqueViolation(error, 'uq_stablecoin_symbol')) throw error;
      throw new ServiceError('CONFLICT', `${metadata.symbol} already names a stablecoin of this deployment`, { reason: 'SYMBOL_TAKEN', symbol: metadata.symbol });
    }
  }
}
