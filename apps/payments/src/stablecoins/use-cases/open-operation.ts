import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  amountFromDigits,
  CallerContext,
  CreateStablecoinBurnMessage,
  CreateStablecoinMintMessage,
  decimalScale,
  fitsOnWire,
  newId,
  StablecoinOperation,
  StablecoinOperationDestination,
  StablecoinOperationSource,
  StablecoinOperationStatus,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, IdempotencyStore, requestHash } from '@paykit/persistence';
import { OperationRow, StablecoinRow } from '../stablecoins.repository';
import { FUNDING_WINDOW_MS } from '../stablecoins.sandbox';
import { StablecoinReader } from './stablecoin-reader';
import { MAX_TRANSFER_BASE_UNITS } from './stablecoin-resources';

/**
 * What a mint and a burn begin with: an earlier answer under the Idempotency-Key, or the operable
 * coin, the amount in both units and the new operation's id and time.
 */
@Injectable()
export class OpenOperation {
  constructor(
    private readonly reader: StablecoinReader,
    private readonly idempotency: IdempotencyStore,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async run(
    ctx: CallerContext,
    type: 'MINT' | 'BURN',
    request: CreateStablecoinMintMessage | CreateStablecoinBurnMessage,
  ): Promise<{ replay: StablecoinOperation } | { hash: string; coin: StablecoinRow; amount: bigint; fiatAmount: bigint; now: Date; id: string }> {
    const { idempotencyKey, stablecoinId, ...body } = request;
    const hash = requestHash([`stablecoin.${type}`, stablecoinId, body]);
    const replay = await this.idempotency.replay<StablecoinOperation>(this.dataSource.manager, ctx.platformId, idempotencyKey, hash);
    if (replay) return { replay };
    const coin = await this.reader.operable(ctx, stablecoinId);
    return { hash, coin, ...convert(coin, body.amount), now: this.clock.now(), id: newId('StablecoinOperation') };
  }
}

/** The amount in the coin's smallest unit and, exactly, in its base currency's. */
function convert(coin: StablecoinRow, wire: string): { amount: bigint; fiatAmount: bigint } {
  const amount = amountFromDigits(wire);
  const base = coin.decimals - 2;
  const unit = decimalScale(Math.max(0, base));
  if (amount <= 0n) throw ServiceError.invalidField('amount', 'amount must be greater than 0');
  if (amount % unit !== 0n) {
    throw ServiceError.invalidField('amount', `amount must convert exactly to whole cents of ${coin.baseCurrency}: a multiple of ${unit} for a ${coin.decimals}-decimal coin`);
  }
  const fiatAmount = amount / unit;
  if (!fitsOnWire(amount) || fiatAmount > MAX_TRANSFER_BASE_UNITS * 100n) {
    throw new ServiceError('AMOUNT_OUT_OF_RANGE', `amount exceeds the largest operation (${MAX_TRANSFER_BASE_UNITS} ${coin.baseCurrency})`, { field: 'amount' });
  }
  return { amount, fiatAmount };
}

/** A new operation's row. */
export function newOperation(
  ctx: CallerContext,
  coin: StablecoinRow,
  op: {
    id: string;
    type: OperationRow['operationType'];
    status: StablecoinOperationStatus;
    amount: bigint;
    fiatAmount: bigint;
    source: StablecoinOperationSource;
    destination: StablecoinOperationDestination;
    fundingInstructions: OperationRow['fundingInstructions'];
    outcomeKey: string;
    description?: string;
    now: Date;
  },
): OperationRow {
  return {
    id: op.id,
    platformId: ctx.platformId,
    stablecoinId: coin.id,
    operationType: op.type,
    status: op.status,
    amount: op.amount,
    fiatAmount: op.fiatAmount,
    fiatCurrency: coin.baseCurrency,
    providerAccountId: coin.providerAccountId,
    source: op.source,
    destination: op.destination,
    fundingInstructions: op.fundingInstructions,
    estimatedDelivery: null,
    holdId: null,
    outcomeKey: op.outcomeKey,
    expiresAt: op.status === 'PENDING_FUNDING' ? new Date(op.now.getTime() + FUNDING_WINDOW_MS) : null,
    providerStatus: op.status === 'PENDING_FUNDING' ? 'awaiting_funds' : 'pending',
    failureReason: null,
    description: op.description ?? null,
    createdAt: op.now,
    updatedAt: op.now,
  };
}
