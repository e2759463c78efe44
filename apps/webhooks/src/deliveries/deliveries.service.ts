import { Inject, Injectable } from '@nestjs/common';
import { isTypedId, ListWebhookDeliveriesRequest, newId, Page, WEBHOOK_TEST_EVENT_TYPE, WebhookDelivery, WebhookDeliveryDetail, WebhookTestResult } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { WEBHOOKS_CONFIG, WebhooksConfig } from '../config/webhooks-config';
import { signatureHeader } from '../signing/webhook-signature';
import { WebhookConfigService } from '../webhook-config/webhook-config.service';
import { DeliveriesRepository } from './deliveries.repository';
import { toWebhookDelivery, toWebhookDeliveryDetail, webhookBody } from './delivery.mapper';
import { DeliveryWorker } from './delivery.worker';
import { sendWebhook } from './webhook-sender';
import { CursorKey, decodeCursor, pageLimit, toPage, Clock } from '@paykit/persistence';

/** The largest receipt sequence there can be (a PostgreSQL bigint). */
const MAX_SEQ = 2n ** 63n - 1n;

/** Deliveries list in receipt order, so their cursor carries the receipt sequence (`d<seq>`). */
const DELIVERY_CURSOR: CursorKey<{ seq: string }> = {
  encode: (delivery) => `d${delivery.seq}`,
  decode: (key) => {
    const seq = /^d(\d{1,19})$/.exec(key)?.[1];
    return seq !== undefined && BigInt(seq) <= MAX_SEQ ? seq : undefined;
  },
};

/** The sandbox test answers within the gateway's RPC timeout, leaving it this much room. */
const TEST_TIMEOUT_MARGIN_MS = 1000;

@Injectable()
export class DeliveriesService {
  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly platforms: WebhookConfigService,
    private readonly worker: DeliveryWorker,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    @Inject(RUNTIME_CONFIG) private readonly runtime: RuntimeConfig,
    private readonly clock: Clock,
  ) {}

  async list(platformId: string, request: ListWebhookDeliveriesRequest): Promise<Page<WebhookDelivery>> {
    const limit = pageLimit(request.limit);
    const rows = await this.deliveries.list(
      platformId,
      { type: request.type, status: request.status, resourceId: request.resourceId, beforeSeq: decodeCursor(request.cursor, DELIVERY_CURSOR) },
      limit + 1,
    );
    return toPage(rows, limit, toWebhookDelivery, DELIVERY_CURSOR);
  }

  async get(platformId: string, deliveryId: string): Promise<WebhookDeliveryDetail> {
    const delivery = isTypedId(deliveryId, 'Webhook') ? await this.deliveries.findById(platformId, deliveryId) : null;
    if (!delivery) throw notFound(deliveryId);
    const [attempts, signingKey] = await Promise.all([this.deliveries.attemptsOf(delivery), this.platforms.signingKey(platformId)]);
    // The body and a signature over it, so a developer (the console) can check the signature the way a receiver does.
    return { ...toWebhookDeliveryDetail(delivery, attempts), body: delivery.body, signature: signatureHeader(signingKey, delivery.body) };
  }

  /** Sends a delivery again soon (same payload id, so the receiver can deduplicate), with a fresh retry round. */
  async redeliver(platformId: string, deliveryId: string): Promise<WebhookDelivery> {
    if (!isTypedId(deliveryId, 'Webhook') || !(await this.deliveries.findById(platformId, deliveryId))) throw notFound(deliveryId);
    if (!(await this.platforms.endpointOf(platformId))) throw endpointNotSet();
    const delivery = await this.deliveries.requestRedelivery(platformId, deliveryId, this.clock.now());
    if (!delivery) throw notFound(deliveryId);
    this.worker.kick();
    return toWebhookDelivery(delivery);
  }

  /** Sends a signed test event now and reports what the receiver answered; nothing is stored or retried. */
  async sendTest(platformId: string): Promise<WebhookTestResult> {
    const endpoint = await this.platforms.endpointOf(platformId);
    if (!endpoint) throw endpointNotSet();
    const id = newId('Webhook');
    const body = webhookBody({
      id,
      type: WEBHOOK_TEST_EVENT_TYPE,
      timestamp: this.clock.now().toISOString(),
      data: { message: 'A test webhook from the Paykit sandbox: your endpoint is reachable and can verify signatures.' },
    });
    const outcome = await sendWebhook({
      url: endpoint,
      body,
      signature: signatureHeader(await this.platforms.signingKey(platformId), body),
      timeoutMs: Math.max(100, Math.min(this.config.deliveryTimeoutMs, this.runtime.rpcTimeoutMs - TEST_TIMEOUT_MARGIN_MS)),
      keepResponseBody: true,
    });
    if (!outcome.succeeded || outcome.statusCode === undefined) {
      throw new ServiceError('WEBHOOK_DELIVERY_ERROR', `The webhook endpoint did not accept the test event: ${outcome.error}`, {
        endpoint,
        ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : {}),
        error: outcome.error,
        latencyMs: outcome.latencyMs,
      });
    }
    return {
      url: endpoint,
      response_status: outcome.statusCode,
      ...(outcome.responseBody !== undefined ? { response_body: outcome.responseBody } : {}),
      id,
      type: WEBHOOK_TEST_EVENT_TYPE,
      endpoint,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
    };
  }
}

function notFound(deliveryId: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Webhook delivery ${deliveryId} not found`);
}

function endpointNotSet(): ServiceError {
  return new ServiceError('WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured: set one with PATCH /config {"webhookEndpoint": "..."}');
}
