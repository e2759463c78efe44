import { useState } from 'preact/hooks';
import { Page } from '../api';
import { ActionButton, field, LoadError, Status, useConsole, useLoad, When } from '../shared';
import { checkSignature, SignatureCheck } from '../signature';

interface Delivery {
  id: string;
  type: string;
  resourceId: string;
  status: string;
  attemptCount: number;
  occurredAt: string;
  lastStatusCode?: number;
  lastError?: string;
}

interface Attempt {
  number: number;
  trigger: string;
  attemptedAt: string;
  endpoint: string;
  statusCode?: number;
  latencyMs: number;
  error?: string;
  succeeded: boolean;
}

interface DeliveryDetail extends Delivery {
  payload: unknown;
  attempts: Attempt[];
  body?: string;
  signature?: string;
}

const SIGNATURE_TEXT: Record<SignatureCheck, string> = {
  valid: 'valid (verified with the platform public key)',
  invalid: 'INVALID',
  unavailable: 'not checked (WebCrypto needs https or localhost)',
};

/** How often the delivery log is read while the page is visible. */
const POLL_MS = 2000;

/** Webhook deliveries as they arrive (the log is polled while the page is visible), their attempts, and redelivery. */
export function WebhooksPage() {
  const { call } = useConsole();
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const deliveries = useLoad(() => call<Page<Delivery>>('GET', '/webhooks/deliveries?limit=50'), [], POLL_MS);
  return (
    <>
      <Endpoint />
      <LoadError error={deliveries.error} />
      <table class="deliveries">
        <thead>
          <tr>
            <th>Event</th>
            <th>Resource</th>
            <th>Status</th>
            <th>Attempts</th>
            <th>Last answer</th>
            <th>Occurred</th>
          </tr>
        </thead>
        <tbody>
          {(deliveries.value?.data ?? []).map((delivery) => (
            <tr
              key={delivery.id}
              data-id={delivery.id}
              data-resource-id={delivery.resourceId}
              class={delivery.id === selected ? 'selected' : undefined}
              onClick={() => setSelected(delivery.id)}
            >
              <td>{delivery.type}</td>
              <td class="id">{delivery.resourceId}</td>
              <td>
                <Status value={delivery.status} />
              </td>
              <td>{delivery.attemptCount}</td>
              <td>{delivery.lastStatusCode ?? delivery.lastError ?? ''}</td>
              <td>
                <When at={delivery.occurredAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {selected ? <DeliveryView key={selected} deliveryId={selected} /> : <p class="hint">Select a delivery to see its attempts and payload.</p>}
    </>
  );
}

/** The platform's webhook endpoint (`GET|PATCH /config`): without one, deliveries are SKIPPED until redelivered. */
function Endpoint() {
  const { call, notify, report } = useConsole();
  const config = useLoad(() => call<{ webhookEndpoint?: string }>('GET', '/config'), []);
  return (
    <form
      class="inline-form endpoint"
      onSubmit={async (event) => {
        event.preventDefault();
        const webhookEndpoint = field(new FormData(event.currentTarget), 'webhookEndpoint');
        try {
          await call('PATCH', '/config', { webhookEndpoint });
          notify(`Webhook endpoint set to ${webhookEndpoint}`);
          await config.reload();
        } catch (error) {
          report(error);
        }
      }}
    >
      <strong>Endpoint</strong>
      <input
        name="webhookEndpoint"
        type="url"
        key={config.value?.webhookEndpoint ?? ''}
        defaultValue={config.value?.webhookEndpoint ?? ''}
        placeholder="https://your-app.example.com/webhooks"
        aria-label="Webhook endpoint"
        required
      />
      <button type="submit">Save endpoint</button>
      <LoadError error={config.error} />
    </form>
  );
}

function DeliveryView({ deliveryId }: { deliveryId: string }) {
  const { call, notify } = useConsole();
  const delivery = useLoad(() => call<DeliveryDetail>('GET', `/webhooks/deliveries/${encodeURIComponent(deliveryId)}`), [deliveryId], POLL_MS);
  // The body and signature do not change: checked once, with the key a receiver would use.
  const signature = useLoad(async (): Promise<SignatureCheck | undefined> => {
    const detail = await call<DeliveryDetail>('GET', `/webhooks/deliveries/${encodeURIComponent(deliveryId)}`);
    const { webhookPublicKey } = await call<{ webhookPublicKey?: string }>('GET', '/config');
    return detail.body && detail.signature && webhookPublicKey ? checkSignature(webhookPublicKey, detail.body, detail.signature) : undefined;
  }, [deliveryId]);
  return (
    <section class="detail delivery-detail">
      <h2>
        {delivery.value?.type ?? deliveryId} <Status value={delivery.value?.status} />{' '}
        <ActionButton
          label="Redeliver"
          run={async () => {
            await call('POST', `/webhooks/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);
            notify('Redelivery queued');
            await delivery.reload();
          }}
        />
      </h2>
      <LoadError error={delivery.error ?? signature.error} />
      <p>
        Signature check: <span class={`signature-check signature-${signature.value ?? 'pending'}`}>{signature.value ? SIGNATURE_TEXT[signature.value] : '…'}</span>
      </p>
      <table class="attempts">
        <thead>
          <tr>
            <th>#</th>
            <th>Trigger</th>
            <th>At</th>
            <th>Endpoint</th>
            <th>Answer</th>
            <th>Latency</th>
          </tr>
        </thead>
        <tbody>
          {(delivery.value?.attempts ?? []).map((attempt) => (
            <tr key={attempt.number} class={attempt.succeeded ? 'succeeded' : 'failed'}>
              <td>{attempt.number}</td>
              <td>{attempt.trigger}</td>
              <td>
                <When at={attempt.attemptedAt} />
              </td>
              <td>{attempt.endpoint}</td>
              <td>{attempt.statusCode ?? attempt.error}</td>
              <td>{attempt.latencyMs} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Payload</h3>
      <pre class="payload">{delivery.value ? JSON.stringify(delivery.value.payload, null, 2) : ''}</pre>
    </section>
  );
}
