import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '@paykit/errors';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { CredentialsService } from './credentials.service';
import { AuthenticatedRequest } from './caller.decorator';
import { BASIC_AUTH_ONLY, PUBLIC_ROUTE } from './public.decorator';
import { defaultPermission, Permission, REQUIRED_PERMISSION } from './permissions';

const SANDBOX_PATH = /\/sandbox(\/|$)/;

interface RouteRules {
  isPublic: boolean;
  basicOnly: boolean;
  /** Declared with @RequiresPermission; otherwise derived from the HTTP method. */
  permission: Permission | undefined;
}

/**
 * Resolves every request to its platform and environment (BasicAuth, or AgentAuth bearer)
 * and enforces the sandbox rules: in a production deployment `/sandbox/*` does not exist;
 * in a sandbox deployment a production token may not use it.
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
    const basicOnly = rules.basicOnly || isSandboxPath;
    const { permissions, ...caller } = await this.authenticateWithinLimits(request, basicOnly);
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
    request.caller = { ...caller, requestId: String(request.id) };
    return true;
  }

  private rulesOf(context: ExecutionContext): RouteRules {
    const handler = context.getHandler();
    let rules = this.routeRules.get(handler);
    if (!rules) {
      const targets = [handler, context.getClass()];
      rules = {
        isPublic: Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)),
        basicOnly: Boolean(this.reflector.getAllAndOverride<boolean>(BASIC_AUTH_ONLY, targets)),
        permission: this.reflector.getAllAndOverride<Permission | undefined>(REQUIRED_PERMISSION, targets),
      };
      this.routeRules.set(handler, rules);
    }
    return rules;
  }

  /**
   * Authentication under the brute-force limits (failures per presented token id and per client
   * address), then the request rate limit of the token or agent it authenticated.
   */
  private async authenticateWithinLimits(request: FastifyRequest, basicOnly: boolean) {
    const header = request.headers.authorization;
    const tokenId = basicTokenIdOf(header);
    this.rateLimiter.assertNotLocked(tokenId, request.ip);
    let verified: Awaited<ReturnType<AuthGuard['authenticate']>>;
    try {
      verified = await this.authenticate(header, basicOnly);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 401) await this.rateLimiter.authenticationFailed(tokenId, request.ip);
      throw error;
    }
    await this.rateLimiter.admit(verified.agent ? `agent:${verified.agent.agentId}` : `token:${tokenId}`, tokenId);
    return verified;
  }

  private async authenticate(header: string | undefined, basicOnly: boolean) {
    if (!header) throw ServiceError.unauthorized('Missing Authorization header');
    const space = header.indexOf(' ');
    const scheme = header.slice(0, space).toLowerCase();
    const value = header.slice(space + 1).trim();
    if (scheme === 'basic') {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon <= 0) throw ServiceError.unauthorized('Malformed Basic credentials');
      const caller = await this.credentials.verifyBasic(decoded.slice(0, colon), decoded.slice(colon + 1));
      if (!caller) throw ServiceError.unauthorized('Invalid API token or secret');
      return caller;
    }
    if (scheme === 'bearer' && !basicOnly) {
      const caller = await this.credentials.verifyBearer(value);
      if (!caller) throw ServiceError.unauthorized('Invalid or expired agent access token');
      return caller;
    }
    throw ServiceError.unauthorized(basicOnly ? 'This endpoint accepts Basic authentication only' : 'Unsupported authorization scheme');
  }
}

/** The token id a Basic Authorization header presents (right or wrong), if it is one. */
function basicTokenIdOf(header: string | undefined): string | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}
