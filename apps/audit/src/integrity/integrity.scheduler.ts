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
import { CheckpointsService } from './checkpoints.service';

/** A signed checkpoint every AUDIT_CHECKPOINT_INTERVAL_MS (issue 5, item 5). */
@Injectable()
export class IntegrityScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly ticker: Ticker;

  constructor(
    @Inject(CheckpointsService) checkpoints: CheckpointsService,
    @Inject(AUDIT_ENV) env: AuditEnv,
    @Inject(JobRunsRepository) jobRuns: JobRunsRepository,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    const interval = env.AUDIT_CHECKPOINT_INTERVAL_MS;
    this.ticker = new Ticker(
      'audit-checkpoints',
      interval,
      async () =>
        (await jobRuns.claim('audit-checkpoints', interval)) && checkpoints.createCheckpoints(),
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
