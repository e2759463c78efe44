import { Injectable } from '@nestjs/common';
import { CallerContext, CreateStablecoinMintMessage, StablecoinOperation, StablecoinOperationSource, StablecoinOperationStatus } from '@paykit/contracts';
import { OperationRow } from '../stablecoins.repository';
import { newOperation, OpenOperation } from './open-operation';
import { OperationParties } from './operation-parties';
import { digitsOf } from './stablecoin-resources';
import { PlannedOperation, StartOperation } from './start-operation';

/**
 * POST /stablecoins/{id}/mints: coins issued against fiat paid into the reserve, by wire (funding
 * instructions, PENDING_FUNDING), bank debit, an internal account (held now) or tokens sent in.
 */
@Injectable()
export class MintStablecoin {
  constructor(
    private readonly openOperation: OpenOperation,
    private readonly parties: OperationParties,
    private readonly startOperation: StartOperation,
  ) {}

  async run(ctx: CallerContext, request: CreateStablecoinMintMessage): Promise<StablecoinOperation> {
    const opening = await this.openOperation.run(ctx, 'MINT', request);
    if ('replay' in opening) return opening.replay;
    const { hash, coin, amount, fiatAmount, now, id } = opening;
    const destination = await this.parties.mintDestination(ctx, coin, request.destination.accountId);
    const funding = request.fundingSource;
    const source: StablecoinOperationSource = { type: funding.type };
    let outcomeKey = '';
    let payer: PlannedOperation['payer'];
    let status: StablecoinOperationStatus = 'PENDING_PROVIDER';
    let fundingInstructions: OperationRow['fundingInstructions'] = null;
    if (funding.type === 'WIRE') {
      status = 'PENDING_FUNDING';
      fundingInstructions = {
        rail: 'WIRE',
        bankName: 'Paykit Sandbox Reserve Bank',
        beneficiaryName: `${coin.name} reserve`,
        accountNumber: digitsOf(`${id}:account`, 10),
        routingNumber: '021000021',
        reference: id.slice(-12),
        amount: fiatAmount.toString(),
        currency: coin.baseCurrency,
      };
    } else if (funding.type === 'ACH_DEBIT' || funding.type === 'SAME_DAY_ACH_DEBIT') {
      const account = await this.parties.bankAccount(ctx, funding.externalAccountId!, coin.baseCurrency, 'fundingSource.externalAccountId');
      source.externalAccountId = account.id;
      outcomeKey = account.routing.primaryIdentifierLast3;
    } else if (funding.type === 'SERVICE_INTERNAL_ACCOUNT') {
      const account = await this.parties.internalAccount(ctx, funding.accountId!, coin.baseCurrency, 'fundingSource.accountId');
      source.accountId = account.id;
      payer = { account, amount: fiatAmount };
    } else {
      source.sourceTokenIdentifier = funding.sourceTokenIdentifier;
      source.cryptoNetwork = funding.cryptoNetwork;
    }
    const row = newOperation(ctx, coin, {
      id,
      type: 'MINT',
      status,
      amount,
      fiatAmount,
      source,
      destination,
      fundingInstructions,
      outcomeKey,
      description: request.description,
      now,
    });
    return this.startOperation.run(ctx, coin, { row, payer }, request.idempotencyKey, hash);
  }
}
