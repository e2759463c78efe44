import { WebhookDelivery, WebhookDeliveryAttempt, WebhookDeliveryDetail, WebhookPayload } from '@paykit/contracts';
import { WebhookDeliveryAttemptEntity } from './entities/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

/** The raw body POSTed to the receiver (INTEROP.md); stored once so every attempt sends the same bytes. */
export function webhookBody(payload: WebhookPayload): string {
  return JSON.stringify({ id: payload.id, type: payload.type, timestamp: payload.timestamp, data: payload.data });
}

export function toWebhookDelivery(entity: WebhookDeliveryEntity): WebhookDelivery {
  return {
    id: entity.id,
    type: entity.type,
    resourceId: entity.resourceId,
    status: entity.status,
    attemptCount: entity.attemptCount,
    occurredAt: entity.occurredAt.toISOString(),
    ...(entity.status === 'PENDING' && entity.nextAttemptAt ? { nextAttemptAt: entity.nextAttemptAt.toISOString() } : {}),
    ...(entity.lastAttemptAt ? { lastAttemptAt: entity.lastAttemptAt.toISOString() } : {}),
    ...(entity.lastStatusCode !== null ? { lastStatusCode: entity.lastStatusCode } : {}),
    ...(entity.lastError !== null ? { lastError: entity.lastError } : {}),
    ...(entity.deliveredAt ? { deliveredAt: entity.deliveredAt.toISOString() } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

export function toWebhookDeliveryAttempt(entity: WebhookDeliveryAttemptEntity): WebhookDeliveryAttempt {
  return {
    number: entity.number,
    trigger: entity.trigger,
    attemptedAt: entity.attemptedAt.toISOString(),
    endpoint: entity.endpoint,
    ...(entity.statusCode !== null ? { statusCode: entity.statusCode } : {}),
    latencyMs: entity.latencyMs,
    ...(entity.error !== null ? { error: entity.error } : {}),
    succeeded: entity.succeeded,
  };
}

export function toWebhookDeliveryDetail(entity: WebhookDeliveryEntity, attempts: WebhookDeliveryAttemptEntity[]): WebhookDeliveryDetail {
  return { ...toWebhookDelivery(entity), payload: JSON.parse(entity.body) as WebhookPayload, attempts: attempts.map(toWebhookDeliveryAttempt) };
}
