import { Injectable } from '@nestjs/common';
import { isTypedId, MAX_WEBHOOK_REPLAY_SIZE, newId, ReplayWebhooksRequest, WEBHOOK_REPLAY_ID_TYPE, WebhookReplay } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { WebhookConfigService } from '../webhook-config/webhook-config.service';
import { ReplayWorker } from './replay.worker';
import { ReplaysRepository } from './replays.repository';

@Injectable()
export class ReplaysService {
  constructor(
    private readonly replays: ReplaysRepository,
    private readonly platforms: WebhookConfigService,
    private readonly worker: ReplayWorker,
  ) {}

  /** Stores the replay of every delivery the filter selects and has the worker send them, in order. */
  async create(platformId: string, request: ReplayWebhooksRequest): Promise<WebhookReplay> {
    const url = request.url ?? (await this.platforms.endpointOf(platformId));
    if (!url) {
      throw new ServiceError('WEBHOOK_ENDPOINT_NOT_SET', 'No webhook endpoint is configured: set one with PATCH /config, or give the replay a url');
    }
    if (request.from && request.to && Date.parse(request.from) >= Date.parse(request.to)) {
      throw ServiceError.invalidField('to', 'to must be after from');
    }
    const id = newId(WEBHOOK_REPLAY_ID_TYPE);
    const filter = { types: request.types, resourceId: request.resourceId, from: request.from, to: request.to };
    const created = await this.replays.create(platformId, id, url, JSON.parse(JSON.stringify(filter)) as typeof filter);
    if (!created) {
      throw ServiceError.invalidInput(
        [{ field: 'types', message: `More than ${MAX_WEBHOOK_REPLAY_SIZE} webhooks match: narrow the filter (types, resourceId, from, to)` }],
        'Too many webhooks to replay at once',
      );
    }
    this.worker.kick();
    return this.get(platformId, id);
  }

  async get(platformId: string, replayId: string): Promise<WebhookReplay> {
    const replay = isTypedId(replayId, WEBHOOK_REPLAY_ID_TYPE) ? await this.replays.get(platformId, replayId) : undefined;
    if (!replay) throw new ServiceError('REFERENCE_NOT_FOUND', `Webhook replay ${replayId} not found`);
    return replay;
  }
}
