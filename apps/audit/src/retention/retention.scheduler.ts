import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { ROOT_LOGGER } from '@agp/http';
import { Logger } from 'pino';

import { AUDIT_ENV } from '../common/audit-env.token';
import { JobRunsRepository } from '../common/job-runs.repository';
import { Ticker } from '../common/ticker';
import { AuditEnv } from '../config/audit.env';
import { RetentionJobService } from './retention-job.service';

/** Retention and partition upkeep every AUDIT_RETENTION_INTERVAL_MS, once per tick across replicas. */
@Injectable()
export class RetentionScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly ticker: Ticker;

  constructor(
    @Inject(RetentionJobService) job: RetentionJobService,
    @Inject(JobRunsRepository) jobRuns: JobRunsRepository,
    @Inject(AUDIT_ENV) env: AuditEnv,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    const interval = env.AUDIT_RETENTION_INTERVAL_MS;
    this.ticker = new Ticker(
      'audit-retention',
      interval,
      async () => {
        if (await jobRuns.claim('audit-retention', interval)) {
          const run = await job.runOnce();
          logger.info({ job: 'audit-retention', ...run }, 'retention ran');
        }
      },
      logger,
    );
  }

  onApplicationBootstrap(): void {
    this.ticker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.ticker.stop();
  }
}
