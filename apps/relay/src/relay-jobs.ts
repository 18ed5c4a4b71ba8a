import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { Scheduler } from '@agp/jobs';
import { Logger } from 'pino';

import { RELAY_DATABASE } from './database/tokens';
import { HitlExpiryJob } from './hitl/hitl-expiry.job';
import { WebhookRetentionJob } from './webhooks/webhook-retention.job';

/**
 * The relay's scheduled work, each once per interval across replicas (F28): holds past their
 * `expiresAt` (D34) every 5 seconds, settled webhook deliveries past their retention every hour.
 * The evaluation runs and webhook deliveries are claim loops of their own (`RunExecutor`,
 * `WebhookDispatcher`).
 */
@Injectable()
export class RelayJobs implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly scheduler: Scheduler;

  constructor(
    @Inject(RELAY_DATABASE) database: Database,
    @Inject(ROOT_LOGGER) logger: Logger,
    hitlExpiry: HitlExpiryJob,
    webhookRetention: WebhookRetentionJob,
  ) {
    this.scheduler = new Scheduler(database, logger);
    this.scheduler.every('relay-hitl-expiry', 5_000, () => hitlExpiry.tick());
    this.scheduler.every('relay-webhook-retention', 3_600_000, () => webhookRetention.tick());
  }

  onApplicationBootstrap(): void {
    this.scheduler.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.scheduler.stop();
  }
}
