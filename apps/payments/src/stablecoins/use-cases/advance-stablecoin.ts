import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { decimalScale, newIdAvoidingSuffixes, SANDBOX_INELIGIBLE_FUNDING_SUFFIXES } from '@paykit/contracts';
import { Clock, JobScheduler } from '@paykit/persistence';
import { CurrenciesRepository, CurrencyInfo } from '../../currencies/currencies.repository';
import { CurrencyCatalog } from '../../currencies/currency-catalog';
import { InternalAccountsRepository } from '../../internal-accounts/internal-accounts.repository';
import { ADVANCE_STABLECOIN_JOB, AdvanceStablecoinJob } from '../stablecoins.jobs';
import { StablecoinsRepository } from '../stablecoins.repository';
import { MAX_TRANSFER_BASE_UNITS } from './stablecoin-resources';
import { StablecoinSteps } from './stablecoin-steps';

/**
 * One step of a coin's review and enabling (ADVANCE_STABLECOIN_JOB). Enabled, the coin becomes a
 * currency of the deployment and the platform gets its holding account in it (an INTERNAL_CRYPTO account).
 */
@Injectable()
export class AdvanceStablecoin implements OnModuleInit {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly stablecoins: StablecoinsRepository,
    private readonly steps: StablecoinSteps,
    private readonly currencies: CurrencyCatalog,
    private readonly currencyTable: CurrenciesRepository,
    private readonly accounts: InternalAccountsRepository,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(ADVANCE_STABLECOIN_JOB, (payload, manager) => this.run(manager, payload));
  }

  async run(manager: EntityManager, job: AdvanceStablecoinJob): Promise<void> {
    const coin = await this.stablecoins.findStablecoin(job.platformId, job.stablecoinId, manager);
    if (!coin) return;
    const enabling = job.step.serviceOperationsStatus === 'ENABLED';
    let currency: CurrencyInfo | undefined;
    if (enabling) {
      const base = await this.currencies.get(coin.baseCurrency);
      currency = {
        code: coin.symbol,
        name: coin.name,
        symbol: coin.symbol,
        decimals: coin.decimals,
        isCrypto: true,
        maxTransferAmount: MAX_TRANSFER_BASE_UNITS * decimalScale(coin.decimals),
        peggedTo: base.code,
      };
      await this.currencyTable.insertStablecoin(manager, { ...currency, peggedTo: base.code });
    }
    const moved = await this.stablecoins.updateStablecoinStatus(manager, job.platformId, coin.id, { ...job.step, currency: currency?.code ?? null }, this.clock.now());
    if (!moved) return;
    if (currency) {
      await this.accounts.insertManyIfAbsent(manager, [
        {
          id: newIdAvoidingSuffixes('InternalAccount', SANDBOX_INELIGIBLE_FUNDING_SUFFIXES),
          platformId: job.platformId,
          customerId: null,
          type: 'INTERNAL_CRYPTO',
          currencyCode: currency.code,
          walletEmail: null,
        },
      ]);
      // Known to this process from now on; a rollback leaves a currency no account uses, which the job's retry writes.
      await this.currencies.added(currency);
    }
    await this.steps.scheduleCoin(manager, job.platformId, coin.id, job.next);
  }
}
