import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../database/tokens';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

const BATCH = 5_000;

/** F30: settled deliveries deleted after `retentionDays` with their attempts; PENDING never. */
@Injectable()
export class WebhookRetentionJob {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  tick(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.options.retentionDays * 86_400_000);
    return this.database.asSystem((tx) => this.deliveries.pruneSettled(tx, before, BATCH));
  }
}
