import { Page } from '../common';
import { ReceivedEvent, WebhookDelivery, WebhookDeliveryDetail, WebhooksPlatformConfig, WebhookTestResult } from './replies';
import { ListReceivedEventsRequest, ListWebhookDeliveriesRequest, UpdateWebhookConfigRequest, WebhookDeliveryIdRequest } from './requests';

export const WEBHOOKS_SUBJECTS = {
  listReceivedEvents: 'webhooks.received-event.list',
  getConfig: 'webhooks.config.get',
  updateConfig: 'webhooks.config.update',
  listDeliveries: 'webhooks.delivery.list',
  getDelivery: 'webhooks.delivery.get',
  redeliver: 'webhooks.delivery.redeliver',
  sendTest: 'webhooks.sandbox.test',
} as const;

export interface WebhooksContract {
  [WEBHOOKS_SUBJECTS.listReceivedEvents]: { request: ListReceivedEventsRequest; reply: ReceivedEvent[] };
  [WEBHOOKS_SUBJECTS.getConfig]: { request: Record<string, never>; reply: WebhooksPlatformConfig };
  [WEBHOOKS_SUBJECTS.updateConfig]: { request: UpdateWebhookConfigRequest; reply: WebhooksPlatformConfig };
  [WEBHOOKS_SUBJECTS.listDeliveries]: { request: ListWebhookDeliveriesRequest; reply: Page<WebhookDelivery> };
  [WEBHOOKS_SUBJECTS.getDelivery]: { request: WebhookDeliveryIdRequest; reply: WebhookDeliveryDetail };
  [WEBHOOKS_SUBJECTS.redeliver]: { request: WebhookDeliveryIdRequest; reply: WebhookDelivery };
  [WEBHOOKS_SUBJECTS.sendTest]: { request: Record<string, never>; reply: WebhookTestResult };
}
