import { WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { eventually, startTestStack } from '../support/test-stack';

describe('Durability across restarts', () => {
  it('keeps customers and delivers each event once after the whole stack restarts', async () => {
    const first = await startTestStack();
    const created = await first.api.post('/customers', { customerType: 'BUSINESS', businessInfo: { legalName: 'Durable Ltd', registrationNumber: 'R-500' } });
    expect(created.status).toBe(201);
    const platformId = await platformOf(first);
    await eventually(async () => {
      const received = await first.stack.runtime.client.request(
        WEBHOOKS_SUBJECTS.listReceivedEvents,
        { resourceId: created.body.id },
        { platformId, environment: 'sandbox', requestId: 't' },
      );
      // The customer's provisioning event may arrive first or in the same batch: wait for the creation.
      return received.some((event) => event.subject === 'customers.events.customer.created') ? received : undefined;
    });
    await first.stop({ keepData: true });

    const second = await startTestStack({ reuse: first });
    try {
      const fetched = await second.api.get(`/customers/${created.body.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(created.body);
      // Give the restarted relays a moment: nothing must be published twice.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const received = await second.stack.runtime.client.request(
        WEBHOOKS_SUBJECTS.listReceivedEvents,
        { resourceId: created.body.id },
        { platformId, environment: 'sandbox', requestId: 't' },
      );
      // Each event once (the customer's provisioning events come too), its creation among them.
      const eventIds = received.map((event) => event.eventId);
      expect(new Set(eventIds).size).toBe(eventIds.length);
      expect(received.filter((event) => event.subject === 'customers.events.customer.created')).toEqual([expect.objectContaining({ webhookType: 'CUSTOMER.KYB_PENDING' })]);
    } finally {
      await second.stop();
    }
    // Two whole stacks start one after the other: more than the default 30 s on a busy machine.
  }, 120_000);
});

async function platformOf(t: Awaited<ReturnType<typeof startTestStack>>): Promise<string> {
  const { CredentialsService } = await import('../../apps/gateway/src/auth/credentials.service');
  return (await t.stack.http.get(CredentialsService).findToken(t.credentials.tokenId))!.platformId;
}
