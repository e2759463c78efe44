import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { environmentTenantId } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { CredentialsService } from './credentials.service';
import { AuthenticatedRequest } from './caller.decorator';
import { AGENT_AUTH_ONLY, PUBLIC_ROUTE } from './public.decorator';
import { defaultPermission, Permission, REQUIRED_AGENT_PERMISSION, REQUIRED_PERMISSION } from './permissions';
import type { AgentPermission } from '@paykit/contracts';

const SANDBOX_PATH = /\/sandbox(\/|$)/;

interface RouteRules {
  isPublic: boolean;
  /** `/agents/me*`: AgentAuth bearer only; every other route takes BasicAuth only. */
  agentOnly: boolean;
  /** Declared with @RequiresPermission; otherwise derived from the HTTP method. */
  permission: Permission | undefined;
  /** Declared with @RequiresAgentPermission on agent routes: the agent policy permission needed. */
  agentPermission: AgentPermission | undefined;
}

/**
 * Resolves every request to its platform and environment: BasicAuth on platform routes, the
 * AgentAuth bearer on the agent's own routes (`@AgentAuthOnly()`), never the other way round;
 * hands services the tenant of that pair (`environmentTenantId`), and enforces the sandbox
 * rules: in a production deployment `/sandbox/*` does not exist; in a sandbox deployment a
 * production token may not use it.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  /** Each route's decorators, read once: they are fixed at start. */
  private readonly routeRules = new WeakMap<object, RouteRules>();

  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialsService,
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rules = this.rulesOf(context);
    if (rules.isPublic) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    const isSandboxPath = SANDBOX_PATH.test(request.url.split('?')[0]);
    if (isSandboxPath && this.config.deployment === 'production') {
      throw new ServiceError('REFERENCE_NOT_FOUND', 'Route not found');
    }
    if (rules.agentOnly) return this.activateAgent(request, rules.agentPermission);
    const { permissions, ...caller } = await this.withinLimits(
      request,
      () => this.authenticateBasic(request.headers.authorization),
      'Invalid API token or secret',
      (_, tokenId) => `token:${tokenId}`,
    );
    if (isSandboxPath && caller.environment === 'production') {
      throw new ServiceError('FORBIDDEN', 'Sandbox endpoints cannot be called with a production token');
    }
    const required = rules.permission ?? defaultPermission(request.method);
    if (!permissions.includes(required)) {
      throw new ServiceError('FORBIDDEN', `This API token lacks the ${required} permission this operation needs`, {
        requiredPermission: required,
        missingPermissions: [required],
      });
    }
    // Services scope by tenant: a platform's sandbox and production data are two tenants (DESIGN "Tenancy and environments").
    request.caller = { ...caller, platformId: environmentTenantId(caller.platformId, caller.environment), requestId: String(request.id) };
    return true;
  }

  /** An agent route: the bearer's agent, running (a paused or deleted one is 401), with the policy permission the route needs. */
  private async activateAgent(request: FastifyRequest & AuthenticatedRequest, needed: AgentPermission | undefined): Promise<boolean> {
    const verified = await this.withinLimits(
      request,
      async () => {
        const { scheme, value } = splitAuthorization(request.headers.authorization);
        if (scheme !== 'bearer') throw ServiceError.unauthorized('This endpoint accepts an AgentAuth bearer token only (the accessToken of a redeemed device code)');
        const agent = await this.credentials.verifyBearer(value);
        if (agent?.isPaused) throw ServiceError.unauthorized('This agent is paused');
        return agent ?? undefined;
      },
      'Invalid, expired or revoked agent access token',
      (agent) => `agent:${agent.agent.agentId}`,
    );
    if (needed && !verified.agent.policy.permissions.includes(needed)) {
      throw new ServiceError('FORBIDDEN', `The agent's policy lacks the ${needed} permission this operation needs`, {
        requiredPermission: needed,
        missingPermissions: [needed],
      });
    }
    request.caller = {
      // Agents are created by a tenant's token, so their platform id is already a tenant id (mapped to itself).
      platformId: environmentTenantId(verified.platformId, verified.environment),
      environment: verified.environment,
      requestId: String(request.id),
      agent: { agentId: verified.agent.agentId, customerId: verified.agent.customerId },
    };
    request.agent = verified.agent;
    return true;
  }

  private rulesOf(context: ExecutionContext): RouteRules {
    const handler = context.getHandler();
    let rules = this.routeRules.get(handler);
    if (!rules) {
      const targets = [handler, context.getClass()];
      rules = {
        isPublic: Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)),
        agentOnly: Boolean(this.reflector.getAllAndOverride<boolean>(AGENT_AUTH_ONLY, targets)),
        permission: this.reflector.getAllAndOverride<Permission | undefined>(REQUIRED_PERMISSION, targets),
        agentPermission: this.reflector.getAllAndOverride<AgentPermission | undefined>(REQUIRED_AGENT_PERMISSION, targets),
      };
      this.routeRules.set(handler, rules);
    }
    return rules;
  }

  /**
   * Authentication under the brute-force limits, then the request rate limit of the token or agent
   * it authenticated. Only a presented credential that does not verify counts as a failure
   * (`authenticate` answers undefined): a missing header or the other route kind's scheme is
   * refused without counting, so a platform calling an agent route with its valid Basic pair never
   * locks itself out.
   */
  private async withinLimits<T>(
    request: FastifyRequest,
    authenticate: () => Promise<T | undefined>,
    refusal: string,
    callerKey: (verified: T, tokenId: string | undefined) => string,
  ): Promise<T> {
    const tokenId = basicTokenIdOf(request.headers.authorization);
    this.rateLimiter.assertNotLocked(tokenId, request.ip);
    const verified = await authenticate();
    if (verified === undefined) {
      await this.rateLimiter.authenticationFailed(tokenId, request.ip);
      throw ServiceError.unauthorized(refusal);
    }
    await this.rateLimiter.admit(callerKey(verified, tokenId));
    return verified;
  }

  private async authenticateBasic(header: string | undefined) {
    const { scheme, value } = splitAuthorization(header);
    if (scheme !== 'basic') {
      // An agent access token is for the agent's own routes only.
      throw ServiceError.unauthorized(
        scheme === 'bearer'
          ? 'This endpoint accepts Basic authentication only (an agent access token works on /agents/me routes)'
          : 'This endpoint accepts Basic authentication only',
      );
    }
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw ServiceError.unauthorized('Malformed Basic credentials');
    return (await this.credentials.verifyBasic(decoded.slice(0, colon), decoded.slice(colon + 1))) ?? undefined;
  }
}

function splitAuthorization(header: string | undefined): { scheme: string; value: string } {
  if (!header) throw ServiceError.unauthorized('Missing Authorization header');
  const space = header.indexOf(' ');
  return { scheme: header.slice(0, space).toLowerCase(), value: header.slice(space + 1).trim() };
}

/** The token id a Basic Authorization header presents (right or wrong), if it is one. */
function basicTokenIdOf(header: string | undefined): string | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}
