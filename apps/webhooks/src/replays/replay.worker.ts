import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { WEBHOOK_REPLAY_HEADER } from '@paykit/contracts';
import { Clock, idlePollMs } from '@paykit/persistence';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { WEBHOOKS_CONFIG, WebhooksConfig } from '../config/webhooks-config';
import { sendWebhook } from '../deliveries/webhook-sender';
import { signatureHeader } from '../signing/webhook-signature';
import { WebhookConfigService } from '../webhook-config/webhook-config.service';
import { LeasedReplay, ReplaysRepository } from './replays.repository';

/** Idle poll: finds replays another replica left behind (its lease expired). */
const POLL_MS = 5_000;

/**
 * Sends replays: one replay at a time per worker, its webhooks one after another in their original
 * order, each once (a replay is a developer's tool: a failure is reported on the item, not
 * retried). The replay row is leased and the lease renewed with every recorded webhook, so
 * replicas never send one replay together and a crashed worker's replay is resumed where it
 * stopped (at least once: the webhook in flight when it died goes again).
 */
@Injectable()
export class ReplayWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReplayWorker.name);
  private readonly idlePollMs: number;
  private readonly leaseMs: number;
  private stopped = true;
  private running?: Promise<void>;
  private again = false;
  private pollTimer?: NodeJS.Timeout;

  constructor(
    private readonly replays: ReplaysRepository,
    private readonly platforms: WebhookConfigService,
    private readonly clock: Clock,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    @Optional() @Inject(RUNTIME_CONFIG) runtime?: RuntimeConfig,
  ) {
    this.idlePollMs = runtime ? idlePollMs(runtime, POLL_MS) : POLL_MS;
    this.leaseMs = config.deliveryTimeoutMs + config.leaseMarginMs;
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.kick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    await this.running;
  }

  /** Look for replays to send now (one was just created). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.pollTimer);
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      } else if (!this.stopped) {
        this.pollTimer = setTimeout(() => this.kick(), this.idlePollMs);
      }
    });
  }

  /** Resolves once no replay is running in this process (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async pass(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        const leaseToken = randomUUID();
        const replay = await this.replays.lease(leaseToken, this.leaseMs);
        if (!replay) return;
        await this.send(replay, leaseToken);
      }
    } catch (error) {
      if (!this.stopped) this.logger.warn(`Webhook replay pass failed: ${(error as Error).message}`);
    }
  }

  private async send(replay: LeasedReplay, leaseToken: string): Promise<void> {
    const key = await this.platforms.signingKey(replay.platformId);
    for (;;) {
      if (this.stopped) return;
      const item = await this.replays.nextItem(replay.id);
      if (!item) break;
      const offsetMs = await this.clock.offsetMs(replay.platformId);
      const outcome = await sendWebhook({
        url: replay.url,
        body: item.body,
        signature: signatureHeader(key, item.body),
        timeoutMs: this.config.deliveryTimeoutMs,
        extraHeaders: { [WEBHOOK_REPLAY_HEADER]: replay.id },
      });
      const attemptedAt = new Date(outcome.attemptedAt.getTime() + offsetMs);
      // Lost the lease (this worker stalled past it): whoever holds it now carries on.
      if (!(await this.replays.record(replay.id, leaseToken, this.leaseMs, item.position, { ...outcome, attemptedAt }))) return;
    }
    await this.replays.complete(replay.id, leaseToken);
  }
}
