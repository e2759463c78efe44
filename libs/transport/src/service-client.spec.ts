import { ServiceError } from '@paykit/errors';
import { InProcessBroker } from './in-process-broker';
import { InProcessClient } from './in-process.transport';
import { ServiceClient, toServiceError, TransportFailure } from './service-client';

const ctx = { platformId: 'Platform:1', environment: 'sandbox' as const, requestId: 'r1' };

/** A client whose one service answers `customers.customer.get` with `answer`. */
function clientAnswering(answer: () => Promise<unknown>, timeoutMs = 50): ServiceClient {
  const broker = new InProcessBroker();
  broker.register('customers.customer.get', async () => {
    try {
      return { response: await answer() };
    } catch (err) {
      return { err: err instanceof ServiceError ? err.toJSON() : err };
    }
  });
  return new ServiceClient(new InProcessClient(broker), timeoutMs);
}

describe(ServiceClient.name, () => {
  describe('request', () => {
    it('returns the reply', async () => {
      await expect(clientAnswering(async () => ({ id: 'Customer:1' })).request('customers.customer.get', { customerId: 'Customer:1' }, ctx)).resolves.toEqual({ id: 'Customer:1' });
    });

    it('turns a serialized service error back into the same ServiceError', async () => {
      const failure = clientAnswering(() => Promise.reject(new ServiceError('USER_NOT_FOUND', 'nope', { a: 1 })));
      await expect(failure.request('customers.customer.get', { customerId: 'x' }, ctx)).rejects.toEqual(new ServiceError('USER_NOT_FOUND', 'nope', { a: 1 }));
    });

    it('answers 504 SERVICE_TIMEOUT when the service does not answer in time', async () => {
      const silent = clientAnswering(() => new Promise(() => undefined), 20);
      await expect(silent.request('customers.customer.get', { customerId: 'x' }, ctx)).rejects.toMatchObject({ code: 'SERVICE_TIMEOUT', status: 504 });
    });
  });

  describe(toServiceError.name, () => {
    it.each([
      ['nobody listens on the subject', new TransportFailure('NO_RESPONDERS'), 'SERVICE_UNAVAILABLE'],
      ['no answer in time', new TransportFailure('TIMEOUT'), 'SERVICE_TIMEOUT'],
      ['connection closed while waiting', new TransportFailure('DISCONNECTED'), 'SERVICE_UNAVAILABLE'],
      ['NATS unreachable', Object.assign(new Error('CONNECTION_REFUSED'), { code: 'CONNECTION_REFUSED' }), 'SERVICE_UNAVAILABLE'],
      ['anything else', new Error('socket exploded at 0xdeadbeef'), 'INTERNAL_ERROR'],
    ])('%s -> %s', (_, error, code) => {
      const mapped = toServiceError(error, 'customers.customer.get');
      expect(mapped.code).toBe(code);
      expect(mapped.message).not.toContain('0xdeadbeef');
    });
  });
});

describe('a subject nobody serves', () => {
  it('answers 503 SERVICE_UNAVAILABLE at once', async () => {
    const client = new ServiceClient(new InProcessClient(new InProcessBroker()), 5000);
    await expect(client.request('customers.customer.get', { customerId: 'x' }, ctx)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  });
});
