import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { Logger } from 'pino';

import { RELAY_DATABASE } from '../database/tokens';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

const TICK_MS = 3_600_000;
const BATCH = 5_000;

/**
 * Settled deliveries (DELIVERED or FAILED) are kept `retentionDays` after their last change, then
 * deleted with their attempts; PENDING ones never. Once per tick across replicas: the replica that
 * takes the transaction-scoped advisory lock does the work (as the HITL expiry does).
 */
@Injectable()
export class WebhookRetentionJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.tick()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.error({ err: error }, 'webhooks: retention failed'))
        .finally(() => {
          this.running = undefined;
        });
    }, TICK_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Deletes what is due; how many this replica deleted in this tick (0 when another holds it). */
  async tick(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.options.retentionDays * 86_400_000);
    return this.database.asSystem(async (tx) => {
      const [lock] = await tx.query<Array<{ taken: boolean }>>(
        `SELECT pg_try_advisory_xact_lock(hashtext('relay.webhook-retention')) AS taken`,
      );
      return lock?.taken ? this.deliveries.pruneSettled(tx, before, BATCH) : 0;
    });
  }
}
