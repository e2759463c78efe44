import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { InternalAccountsService } from '../../internal-accounts/internal-accounts.service';
import { LedgerRepository } from '../../ledger/ledger.repository';
import { LedgerService } from '../../ledger/ledger.service';
import { OperationRow, StablecoinRow } from '../stablecoins.repository';

/** Funding types whose money comes from outside the ledger (an external clearing account pays the reserve). */
const EXTERNAL_FUNDING = new Set(['WIRE', 'ACH_DEBIT', 'SAME_DAY_ACH_DEBIT', 'PROVIDER_INTERNAL_BALANCE', 'EXTERNAL_ACCOUNT']);

/**
 * The entries of a completed operation, one per currency, each balanced:
 * - mint: the payer (external clearing, or the held internal account) pays the fiat into the
 *   reserve; the supply account issues the coins to the destination (its holding account, or
 *   external clearing for a wallet outside);
 * - burn: the source (the held internal account, or external clearing for coins sent in) returns
 *   the coins to the supply account; the reserve pays the fiat out to external clearing.
 */
@Injectable()
export class OperationPostings {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly ledgerService: LedgerService,
    private readonly internalAccounts: InternalAccountsService,
  ) {}

  async post(manager: EntityManager, coin: StablecoinRow, op: OperationRow): Promise<void> {
    const coinCurrency = coin.currency!;
    const base = coin.baseCurrency;
    const system = (currency: string, purpose: Parameters<LedgerRepository['systemAccount']>[3]) => this.ledger.systemAccount(manager, op.platformId, currency, purpose);
    const moved: string[] = [];
    if (op.operationType === 'MINT') {
      if (op.holdId) {
        await this.ledgerService.captureWithin(manager, op.platformId, op.holdId, op.fiatAmount, `${op.id}:capture`, 'STABLECOIN_RESERVE', 'STABLECOIN_MINT');
        moved.push(op.source.accountId!);
      } else if (EXTERNAL_FUNDING.has(op.source.type)) {
        await this.ledger.post(manager, {
          platformId: op.platformId,
          kind: 'STABLECOIN_MINT',
          referenceId: op.id,
          currency: base,
          lines: [
            { account: await system(base, 'EXTERNAL_CLEARING'), amount: -op.fiatAmount },
            { account: await system(base, 'STABLECOIN_RESERVE'), amount: op.fiatAmount },
          ],
        });
      }
      const internal = op.destination.accountId.startsWith('InternalAccount:');
      await this.ledger.post(manager, {
        platformId: op.platformId,
        kind: 'STABLECOIN_MINT',
        referenceId: op.id,
        currency: coinCurrency,
        lines: [
          { account: await system(coinCurrency, 'STABLECOIN_SUPPLY'), amount: -op.amount },
          { account: internal ? this.ledger.holdingRef(op.destination.accountId, coinCurrency) : await system(coinCurrency, 'EXTERNAL_CLEARING'), amount: op.amount },
        ],
      });
      if (internal) moved.push(op.destination.accountId);
    } else {
      if (op.holdId) {
        await this.ledgerService.captureWithin(manager, op.platformId, op.holdId, op.amount, `${op.id}:capture`, 'STABLECOIN_SUPPLY', 'STABLECOIN_BURN');
        moved.push(op.source.accountId!);
      } else {
        await this.ledger.post(manager, {
          platformId: op.platformId,
          kind: 'STABLECOIN_BURN',
          referenceId: op.id,
          currency: coinCurrency,
          lines: [
            { account: await system(coinCurrency, 'EXTERNAL_CLEARING'), amount: -op.amount },
            { account: await system(coinCurrency, 'STABLECOIN_SUPPLY'), amount: op.amount },
          ],
        });
      }
      await this.ledger.post(manager, {
        platformId: op.platformId,
        kind: 'STABLECOIN_BURN',
        referenceId: op.id,
        currency: base,
        lines: [
          { account: await system(base, 'STABLECOIN_RESERVE'), amount: -op.fiatAmount },
          { account: await system(base, 'EXTERNAL_CLEARING'), amount: op.fiatAmount },
        ],
      });
    }
    for (const accountId of moved) await this.internalAccounts.announceBalance(manager, op.platformId, accountId);
  }
}
