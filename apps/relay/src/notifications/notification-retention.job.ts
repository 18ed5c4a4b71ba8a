import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../database/tokens';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../webhooks/webhooks.options';
import { NotificationDeliveriesRepository } from './notification-deliveries.repository';

const BATCH = 1_000;

/** Settled notification deliveries go WEBHOOK_RETENTION_DAYS after their last change (W10, W20). */
@Injectable()
export class NotificationRetentionJob {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    private readonly deliveries: NotificationDeliveriesRepository,
  ) {}

  async tick(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.options.retentionDays * 86_400_000);
    let deleted = 0;
    let batch: number;
    do {
      batch = await this.database.asSystem((tx) => this.deliveries.pruneSettled(tx, before, BATCH));
      deleted += batch;
    } while (batch === BATCH);
    return deleted;
  }
}
