import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ServiceError } from '@paykit/errors';
import { RuntimeConfig } from '@paykit/runtime';
import { AuthGuard } from './auth.guard';
import { CredentialsService, VerifiedCaller } from './credentials.service';
import { RateLimiter } from '../rate-limits/rate-limiter';

function contextFor(url: string, authorization?: string): { context: ExecutionContext; request: Record<string, unknown> } {
  const request: Record<string, unknown> = { url, method: 'GET', id: 'req-1', headers: authorization ? { authorization } : {} };
  const context = {
    getHandler: () => () => undefined,
    getClass: () => class {},
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { context, request };
}

function guardWith(deployment: 'sandbox' | 'production', caller: VerifiedCaller | undefined): AuthGuard {
  const credentials = { verifyBasic: jest.fn().mockResolvedValue(caller), verifyBearer: jest.fn().mockResolvedValue(undefined) } as unknown as CredentialsService;
  const rateLimiter = { assertNotLocked: jest.fn(), authenticationFailed: jest.fn(), admit: jest.fn() } as unknown as RateLimiter;
  return new AuthGuard(new Reflector(), credentials, { deployment } as RuntimeConfig, rateLimiter);
}

const basic = `Basic ${Buffer.from('tok_1:secret').toString('base64')}`;

describe(AuthGuard.name, () => {
  describe('canActivate', () => {
    it.each([
      ['sandbox deployment, sandbox token, sandbox path', 'sandbox', 'sandbox', '/2025-10-13/sandbox/cards/x/simulate/authorization', 'allowed'],
      ['sandbox deployment, production token, sandbox path', 'sandbox', 'production', '/2025-10-13/sandbox/cards/x/simulate/authorization', 'FORBIDDEN'],
      ['production deployment, any token, sandbox path', 'production', 'production', '/2025-10-13/sandbox/send', 'REFERENCE_NOT_FOUND'],
      ['production deployment, the test clock', 'production', 'production', '/2025-10-13/sandbox/clock/advance', 'REFERENCE_NOT_FOUND'],
      ['sandbox deployment, production token, the test clock', 'sandbox', 'production', '/2025-10-13/sandbox/clock', 'FORBIDDEN'],
      ['production deployment, production token, normal path', 'production', 'production', '/2025-10-13/customers', 'allowed'],
      ['sandbox deployment, production token, normal path', 'sandbox', 'production', '/2025-10-13/customers', 'allowed'],
    ] as const)('%s: %s', async (_, deployment, environment, url, outcome) => {
      const guard = guardWith(deployment, { platformId: 'Platform:1', environment, permissions: ['VIEW', 'TRANSACT', 'MANAGE'] });
      const { context, request } = contextFor(url, basic);
      if (outcome === 'allowed') {
        await expect(guard.canActivate(context)).resolves.toBe(true);
        // A production token's caller is the platform's production tenant, never its sandbox one.
        expect(request.caller).toEqual({ platformId: environment === 'production' ? 'Platform:1/production' : 'Platform:1', environment, requestId: 'req-1' });
      } else {
        await expect(guard.canActivate(context)).rejects.toMatchObject({ code: outcome });
      }
    });

    it('refuses AgentAuth bearer tokens on sandbox paths', async () => {
      const guard = guardWith('sandbox', undefined);
      const { context } = contextFor('/2025-10-13/sandbox/send', 'Bearer abc');
      const failure = guard.canActivate(context);
      await expect(failure).rejects.toBeInstanceOf(ServiceError);
      await expect(failure).rejects.toMatchObject({ code: 'UNAUTHORIZED', details: { reason: expect.stringContaining('This endpoint accepts Basic authentication only') } });
    });

    it('refuses AgentAuth bearer tokens on platform routes without looking them up', async () => {
      const guard = guardWith('sandbox', undefined);
      const { context } = contextFor('/2025-10-13/customers', 'Bearer gat_abc');
      await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'UNAUTHORIZED', details: { reason: expect.stringContaining('/agents/me') } });
    });

    it('refuses malformed Basic credentials', async () => {
      const guard = guardWith('sandbox', undefined);
      const { context } = contextFor('/2025-10-13/customers', `Basic ${Buffer.from('no-colon').toString('base64')}`);
      await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'Malformed Basic credentials' } });
    });
    it.each([
      ['a VIEW token reading', ['VIEW'], 'GET', 'allowed'],
      ['a VIEW token moving money', ['VIEW'], 'POST', 'TRANSACT'],
      ['a TRANSACT token reading', ['TRANSACT'], 'GET', 'VIEW'],
      ['a TRANSACT token moving money', ['TRANSACT'], 'POST', 'allowed'],
      ['a MANAGE token moving money', ['MANAGE'], 'POST', 'TRANSACT'],
    ] as const)('%s: %s', async (_, permissions, method, outcome) => {
      const guard = guardWith('sandbox', { platformId: 'Platform:1', environment: 'sandbox', permissions });
      const { context, request } = contextFor('/2025-10-13/transfer-out', basic);
      request.method = method;
      if (outcome === 'allowed') {
        await expect(guard.canActivate(context)).resolves.toBe(true);
      } else {
        await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'FORBIDDEN', details: { requiredPermission: outcome } });
      }
    });
  });
});
