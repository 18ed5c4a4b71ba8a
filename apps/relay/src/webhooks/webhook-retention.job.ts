import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../database/tokens';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

const BATCH = 5_000;

/**
 * Settled deliveries (DELIVERED or FAILED) are kept `retentionDays` after their last change, then
 * deleted with their attempts; PENDING ones never. Run by `relayJobs` on one replica per tick (F30).
 */
@Injectable()
export class WebhookRetentionJob {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  /** Deletes what is due; how many. */
  tick(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.options.retentionDays * 86_400_000);
    return this.database.asSystem((tx) => this.deliveries.pruneSettled(tx, before, BATCH));
  }
}
