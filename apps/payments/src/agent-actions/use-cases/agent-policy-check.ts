import { Injectable } from '@nestjs/common';
import { AgentScope } from '@paykit/contracts';
import { Clock } from '@paykit/persistence';
import { ExchangeRatesService } from '../../exchange-rates/exchange-rates.service';
import { amountsIn, usagePeriod } from '../agent-policy';

/** What an agent's policy is checked with: the action's amount in the policy's currencies, and the usage period of the platform's time. */
@Injectable()
export class AgentPolicyCheck {
  constructor(
    private readonly rates: ExchangeRatesService,
    private readonly clock: Clock,
  ) {}

  /** The action's amount in its policy's limit and threshold currencies, at the rate table's rates. */
  amountsIn(agent: AgentScope, amount: bigint, currency: string): Promise<(target: string) => bigint | undefined> {
    return amountsIn(agent.policy, amount, currency, (value, source, target) => this.rates.convertRoundingUp(value, source, target));
  }

  /** The usage counters' day and month now. */
  period(): { day: string; month: string } {
    return usagePeriod(this.clock.now());
  }
}
