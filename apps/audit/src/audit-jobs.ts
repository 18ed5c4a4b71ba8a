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

import { AUDIT_ENV } from './common/audit-env.token';
import { AuditEnv } from './config/audit.env';
import { AUDIT_DATABASE } from './database/tokens';
import { CheckpointsService } from './integrity/checkpoints.service';
import { RetentionJobService } from './retention/retention-job.service';

/**
 * The audit service's scheduled work, each once per interval across replicas (F28): a signed
 * checkpoint (issue 5, item 5) and retention with partition upkeep (A9). The monitors' minute tick
 * is `DetectorTickService`'s.
 */
@Injectable()
export class AuditJobs implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly scheduler: Scheduler;

  constructor(
    @Inject(AUDIT_DATABASE) database: Database,
    @Inject(ROOT_LOGGER) logger: Logger,
    @Inject(AUDIT_ENV) env: AuditEnv,
    @Inject(CheckpointsService) checkpoints: CheckpointsService,
    @Inject(RetentionJobService) retention: RetentionJobService,
  ) {
    this.scheduler = new Scheduler(database, logger);
    this.scheduler.every('audit-checkpoints', env.AUDIT_CHECKPOINT_INTERVAL_MS, () =>
      checkpoints.createCheckpoints(),
    );
    this.scheduler.every('audit-retention', env.AUDIT_RETENTION_INTERVAL_MS, async () =>
      logger.info({ job: 'audit-retention', ...(await retention.runOnce()) }, 'retention ran'),
    );
  }

  onApplicationBootstrap(): void {
    this.scheduler.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.scheduler.stop();
  }
}
