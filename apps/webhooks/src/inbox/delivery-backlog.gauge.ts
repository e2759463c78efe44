import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { processMetrics } from '@paykit/runtime';

/**
 * `paykit_webhook_deliveries_due`: deliveries due and not in flight, read at each scrape (the
 * backlog KEDA scales the webhooks app on; every replica reports the same figure).
 */
@Injectable()
export class DeliveryBacklogGauge implements OnApplicationBootstrap, OnApplicationShutdown {
  private stop?: () => void;

  constructor(private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.stop = processMetrics.gauge('paykit_webhook_deliveries_due', async () => {
      const [row]: Array<{ due: number }> = await this.dataSource.query(
        `SELECT count(*)::int AS due FROM webhook_delivery WHERE status = 'PENDING' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until <= now())`,
      );
      return [{ labels: {}, value: row.due }];
    });
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }
}
