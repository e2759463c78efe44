import { CallHandler, ExecutionContext } from '@nestjs/common';
import { firstValueFrom, of } from 'rxjs';
import { canonicalRequestDigest, SignedRetryOutcome } from '@paykit/contracts';
import { GatewayConfig, loadGatewayConfig } from '../config/gateway-config';
import { SignedActionInterceptor, SignedActionRequest } from './signed-action.interceptor';

const config: GatewayConfig = { ...loadGatewayConfig({}), host: '127.0.0.1', port: 0, apiPrefix: 'paykit' };
const challenge = { payloadToSign: '{"type":"SIGNED_REQUEST"}', requestId: 'Request:1', expiresAt: '2025-10-13T12:05:00.000Z' };

/** One signed-action route call: the request and reply the interceptor sees, and what it answers for `outcome`. */
async function intercept(outcome: SignedRetryOutcome<unknown>, route: { statusCode: number; headers?: Record<string, string> }) {
  const request = { method: 'PATCH', url: '/paykit/2025-10-13/cards/Card:1?expand=none', body: { state: 'FROZEN' }, headers: route.headers ?? {} } as SignedActionRequest;
  const reply = {
    statusCode: route.statusCode,
    status(code: number) {
      this.statusCode = code;
      return this;
    },
  };
  const context = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ExecutionContext;
  const next: CallHandler<SignedRetryOutcome<unknown>> = { handle: () => of(outcome) };
  const body = await firstValueFrom(new SignedActionInterceptor(config).intercept(context, next));
  return { request, status: reply.statusCode, body };
}

describe(SignedActionInterceptor.name, () => {
  describe('intercept', () => {
    it('binds the challenge to the method, the path under {base_url} without its query, and the body', async () => {
      const { request } = await intercept({ challenge }, { statusCode: 200 });
      expect(request.signedRetry).toEqual({ requestDigest: canonicalRequestDigest('PATCH', '/cards/Card:1', { state: 'FROZEN' }) });
    });

    it('passes both signature headers on as sent', async () => {
      const { request } = await intercept({ result: {} }, { statusCode: 200, headers: { 'service-wallet-signature': 'stamp', 'request-id': 'Request:1' } });
      expect(request.signedRetry).toMatchObject({ signature: 'stamp', requestId: 'Request:1' });
    });

    it.each([
      ['a challenge', { challenge }, 200, 202, challenge],
      ['a result', { result: { id: 'Card:1' } }, 200, 200, { id: 'Card:1' }],
      ['a result of a 204 route', { result: { ok: true } }, 204, 204, undefined],
    ])('answers %s with its status and body', async (_, outcome, routeStatus, status, body) => {
      expect(await intercept(outcome, { statusCode: routeStatus })).toMatchObject({ status, body });
    });
  });
});
