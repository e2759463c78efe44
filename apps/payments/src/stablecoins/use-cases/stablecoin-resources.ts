import { createHash } from 'node:crypto';
import { CallerContext, Stablecoin, StablecoinOperation, StablecoinProviderAccount, StablecoinProviderEnvironment } from '@paykit/contracts';
import { OperationRow, ProviderAccountRow, StablecoinRow } from '../stablecoins.repository';

/** The largest amount of one transfer of a coin: a billion units of its base currency. */
export const MAX_TRANSFER_BASE_UNITS = 1_000_000_000n;

export function environmentOf(ctx: CallerContext): StablecoinProviderEnvironment {
  return ctx.environment === 'sandbox' ? 'SANDBOX' : 'PRODUCTION';
}

export function toProviderAccount(row: ProviderAccountRow): StablecoinProviderAccount {
  return {
    id: row.id,
    provider: row.provider,
    providerAccountId: row.providerAccountId,
    providerEnvironment: row.environment,
    status: row.status,
    ...(row.lastVerifiedAt ? { lastVerifiedAt: row.lastVerifiedAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toStablecoin(row: StablecoinRow): Stablecoin {
  return {
    id: row.id,
    name: row.name,
    symbol: row.symbol,
    baseCurrency: row.baseCurrency,
    network: row.network,
    decimals: row.decimals,
    issuanceStatus: row.issuanceStatus,
    serviceOperationsStatus: row.serviceOperationsStatus,
    networkTokenIdentifier: row.networkTokenIdentifier,
    ...(row.currency ? { currency: row.currency } : {}),
    provider: row.provider,
    stablecoinProviderAccountId: row.providerAccountId,
    providerEnvironment: row.environment,
    providerTokenIdentifier: row.providerTokenIdentifier,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toOperation(row: OperationRow, coin: Pick<StablecoinRow, 'provider' | 'environment'>): StablecoinOperation {
  return {
    id: row.id,
    stablecoinId: row.stablecoinId,
    operationType: row.operationType,
    status: row.status,
    amount: row.amount.toString(),
    provider: coin.provider,
    providerEnvironment: coin.environment,
    stablecoinProviderAccountId: row.providerAccountId,
    source: row.source,
    destination: row.destination,
    ...(row.fundingInstructions ? { fundingInstructions: row.fundingInstructions } : {}),
    ...(row.estimatedDelivery ? { estimatedDelivery: row.estimatedDelivery } : {}),
    ...(row.expiresAt ? { expiresAt: row.expiresAt.toISOString() } : {}),
    ...(row.providerStatus ? { providerStatus: row.providerStatus } : {}),
    ...(row.failureReason ? { failureReason: row.failureReason } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Digits derived from an id, for sandbox funding instructions that never collide. */
export function digitsOf(seed: string, count: number): string {
  const hash = createHash('sha256').update(seed).digest();
  return Array.from(hash.subarray(0, count), (byte) => String(byte % 10)).join('');
}
