import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { AuthenticatedRequest } from '../auth/caller.decorator';
import { basePath, GatewayConfig } from '../config/gateway-config';
import { GATEWAY_CONFIG } from '../http/tokens';
import { SandboxFaultsService } from './sandbox-faults.service';

/**
 * Runs after the AuthGuard: a sandbox caller's call first meets the platform's sandbox faults
 * (POST /sandbox/faults). A production deployment, a production token and a public route never do.
 */
@Injectable()
export class SandboxFaultGuard implements CanActivate {
  private readonly base: string;

  constructor(
    private readonly faults: SandboxFaultsService,
    @Inject(RUNTIME_CONFIG) private readonly runtime: RuntimeConfig,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.base = basePath(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.runtime.deployment !== 'sandbox') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    const caller = request.caller;
    if (caller?.environment !== 'sandbox') return true;
    const route = request.routeOptions.url ?? '';
    if (!route.startsWith(this.base)) return true;
    const template = route.slice(this.base.length).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const path = request.url.split('?')[0].slice(this.base.length);
    await this.faults.applyTo(caller, `${request.method} ${template}`, path);
    return true;
  }
}
