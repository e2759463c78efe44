import { Injectable } from '@nestjs/common';
import {
  CallerContext,
  CreateStablecoinBurnMessage,
  StablecoinOperation,
  StablecoinOperationDestination,
  StablecoinOperationSource,
  StablecoinOperationStatus,
} from '@paykit/contracts';
import { OperationRow } from '../stablecoins.repository';
import { PAYOUT_RAIL_TIMING } from '../stablecoins.sandbox';
import { newOperation, OpenOperation } from './open-operation';
import { OperationParties } from './operation-parties';
import { digitsOf } from './stablecoin-resources';
import { PlannedOperation, StartOperation } from './start-operation';

/** POST /stablecoins/{id}/burns: coins returned to the supply, their fiat paid out from the reserve to a bank account. */
@Injectable()
export class BurnStablecoin {
  constructor(
    private readonly openOperation: OpenOperation,
    private readonly parties: OperationParties,
    private readonly startOperation: StartOperation,
  ) {}

  async run(ctx: CallerContext, request: CreateStablecoinBurnMessage): Promise<StablecoinOperation> {
    const opening = await this.openOperation.run(ctx, 'BURN', request);
    if ('replay' in opening) return opening.replay;
    const { hash, coin, amount, fiatAmount, now, id } = opening;
    const payout = await this.parties.bankAccount(ctx, request.destination.externalAccountId, coin.baseCurrency, 'destination.externalAccountId');
    const destination: StablecoinOperationDestination = { accountId: payout.id, rail: request.destination.rail };
    const source: StablecoinOperationSource = { type: request.source.type };
    let payer: PlannedOperation['payer'];
    let status: StablecoinOperationStatus = 'PENDING_PROVIDER';
    let fundingInstructions: OperationRow['fundingInstructions'] = null;
    if (request.source.type === 'SERVICE_INTERNAL_ACCOUNT') {
      const account = await this.parties.internalAccount(ctx, request.source.accountId!, coin.currency!, 'source.accountId');
      source.accountId = account.id;
      payer = { account, amount };
    } else if (request.source.type === 'EXTERNAL_ACCOUNT') {
      status = 'PENDING_FUNDING';
      fundingInstructions = { rail: 'SPARK', network: 'SPARK', address: `spark1${digitsOf(`${id}:address`, 24)}`, valueType: coin.providerTokenIdentifier };
    }
    const row = newOperation(ctx, coin, {
      id,
      type: 'BURN',
      status,
      amount,
      fiatAmount,
      source,
      destination,
      fundingInstructions,
      outcomeKey: payout.routing.primaryIdentifierLast3,
      description: request.description,
      now,
    });
    row.estimatedDelivery = { rail: request.destination.rail, amount: fiatAmount.toString(), currency: coin.baseCurrency, timing: PAYOUT_RAIL_TIMING[request.destination.rail] };
    return this.startOperation.run(ctx, coin, { row, payer }, request.idempotencyKey, hash);
  }
}
