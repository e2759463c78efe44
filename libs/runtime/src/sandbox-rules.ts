import { CallerContext, Environment, sandboxRulesApply } from '@paykit/contracts';

/**
 * The deployment's answer to "do sandbox rules apply to this caller?", injected into every service
 * (ServiceRuntimeModule) so each sandbox table, fixed code and simulator asks the same question
 * (`sandboxRulesApply`): a production deployment never reads a suffix table.
 */
export class SandboxRules {
  constructor(readonly deployment: Environment) {}

  applyTo(ctx: Pick<CallerContext, 'platformId' | 'environment'>): boolean {
    return sandboxRulesApply(this.deployment, ctx);
  }
}
