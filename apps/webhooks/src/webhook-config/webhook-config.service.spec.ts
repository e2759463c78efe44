import { ServiceError } from '@paykit/errors';
import { assertDeliverableUrl } from './webhook-config.service';

describe(assertDeliverableUrl.name, () => {
  it.each([
    ['https://platform.example.com/webhooks', 'https://platform.example.com/webhooks'],
    ['http://127.0.0.1:4242/hooks', 'http://127.0.0.1:4242/hooks'],
    ['http://localhost:3000', 'http://localhost:3000/'],
    ['http://[::1]:3000/x', 'http://[::1]:3000/x'],
  ])('accepts %s', (input, normalised) => {
    expect(assertDeliverableUrl(input)).toBe(normalised);
  });

  it.each([['ftp://platform.example.com/x'], ['https://user:pass@platform.example.com/x'], ['https://user@platform.example.com/x'], ['/relative/path'], ['javascript:alert(1)']])(
    'refuses %s as INVALID_INPUT on webhookEndpoint with the url format',
    (input) => {
      try {
        assertDeliverableUrl(input);
        throw new Error('accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(ServiceError);
        expect((error as ServiceError).details).toEqual({ errors: [expect.objectContaining({ field: 'webhookEndpoint', constraint: { format: 'url' } })] });
      }
    },
  );
});
