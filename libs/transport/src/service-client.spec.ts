import { NEVER, Observable, of, throwError } from 'rxjs';
import { ServiceError } from '@paykit/errors';
import { ServiceClient, toServiceError } from './service-client';

const ctx = { platformId: 'Platform:1', environment: 'sandbox' as const, requestId: 'r1' };

function clientAnswering(answer: Observable<unknown>, timeoutMs = 50): ServiceClient {
  return new ServiceClient({ send: () => answer, close: () => undefined } as never, timeoutMs);
}

describe(ServiceClient.name, () => {
  describe('request', () => {
    it('returns the reply', async () => {
      await expect(clientAnswering(of({ id: 'Customer:1' })).request('customers.customer.get', { customerId: 'Customer:1' }, ctx)).resolves.toEqual({ id: 'Customer:1' });
    });

    it('turns a serialized service error back into the same ServiceError', async () => {
      const failure = clientAnswering(throwError(() => ({ code: 'USER_NOT_FOUND', message: 'nope', details: { a: 1 } })));
      await expect(failure.request('customers.customer.get', { customerId: 'x' }, ctx)).rejects.toEqual(new ServiceError('USER_NOT_FOUND', 'nope', { a: 1 }));
    });

    it('answers 504 SERVICE_TIMEOUT when the service does not answer in time', async () => {
      const silent = new ServiceClient({ send: () => NEVER, close: () => undefined } as never, 20);
      await expect(silent.request('customers.customer.get', { customerId: 'x' }, ctx)).rejects.toMatchObject({ code: 'SERVICE_TIMEOUT', status: 504 });
    });
  });

  describe(toServiceError.name, () => {
    it.each([
      ['NATS no responders', Object.assign(new Error('503'), { code: '503' }), 'SERVICE_UNAVAILABLE'],
      ['NATS request timeout', Object.assign(new Error('TIMEOUT'), { code: 'TIMEOUT' }), 'SERVICE_TIMEOUT'],
      ['in-process: nobody registered', { code: 'SERVICE_UNAVAILABLE', message: 'No service answers customers.customer.get' }, 'SERVICE_UNAVAILABLE'],
      ['anything else', new Error('socket exploded at 0xdeadbeef'), 'INTERNAL_ERROR'],
    ])('%s -> %s', (_, error, code) => {
      const mapped = toServiceError(error, 'customers.customer.get');
      expect(mapped.code).toBe(code);
      expect(mapped.message).not.toContain('0xdeadbeef');
    });
  });
});
