import { Page } from '../common';
import { ReplayWebhooksRequest, WebhookReplay, WebhookReplayIdRequest } from './replays';
import { CreateSandboxFaultRequest, SandboxFault, SandboxFaultIdRequest } from '../sandbox/faults';
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
  createFault: 'webhooks.fault.create',
  listFaults: 'webhooks.fault.list',
  deleteFault: 'webhooks.fault.delete',
  replay: 'webhooks.replay.create',
  getReplay: 'webhooks.replay.get',
} as const;

export interface WebhooksContract {
  [WEBHOOKS_SUBJECTS.listReceivedEvents]: { request: ListReceivedEventsRequest; reply: ReceivedEvent[] };
  [WEBHOOKS_SUBJECTS.getConfig]: { request: Record<string, never>; reply: WebhooksPlatformConfig };
  [WEBHOOKS_SUBJECTS.updateConfig]: { request: UpdateWebhookConfigRequest; reply: WebhooksPlatformConfig };
  [WEBHOOKS_SUBJECTS.listDeliveries]: { request: ListWebhookDeliveriesRequest; reply: Page<WebhookDelivery> };
  [WEBHOOKS_SUBJECTS.getDelivery]: { request: WebhookDeliveryIdRequest; reply: WebhookDeliveryDetail };
  [WEBHOOKS_SUBJECTS.redeliver]: { request: WebhookDeliveryIdRequest; reply: WebhookDelivery };
  [WEBHOOKS_SUBJECTS.sendTest]: { request: Record<string, never>; reply: WebhookTestResult };
  [WEBHOOKS_SUBJECTS.createFault]: { request: CreateSandboxFaultRequest; reply: SandboxFault };
  [WEBHOOKS_SUBJECTS.listFaults]: { request: Record<string, never>; reply: SandboxFault[] };
  [WEBHOOKS_SUBJECTS.deleteFault]: { request: SandboxFaultIdRequest; reply: { deleted: boolean } };
  [WEBHOOKS_SUBJECTS.replay]: { request: ReplayWebhooksRequest; reply: WebhookReplay };
  [WEBHOOKS_SUBJECTS.getReplay]: { request: WebhookReplayIdRequest; reply: WebhookReplay };
}
