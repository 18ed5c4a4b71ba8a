import { ROOT_LOGGER } from '@agp/http';
import { schedulerProvider } from '@agp/jobs';
import { Logger } from 'pino';

import { AUDIT_ENV } from './common/audit-env.token';
import { AuditEnv } from './config/audit.env';
import { AUDIT_DATABASE } from './database/tokens';
import { CheckpointsService } from './integrity/checkpoints.service';
import { RetentionJobService } from './retention/retention-job.service';

/**
 * The audit service's scheduled work, each once per interval across replicas (F30): a signed
 * checkpoint (issue 5, item 5) and retention with partition upkeep (A9). The monitors' minute tick
 * is `DetectorTickService`'s.
 */
export const auditJobs = schedulerProvider({
  provide: Symbol.for('agp:audit:jobs'),
  database: AUDIT_DATABASE,
  inject: [AUDIT_ENV, ROOT_LOGGER, CheckpointsService, RetentionJobService],
  jobs: (
    env: AuditEnv,
    logger: Logger,
    checkpoints: CheckpointsService,
    retention: RetentionJobService,
  ) => [
    {
      name: 'audit-checkpoints',
      intervalMs: env.AUDIT_CHECKPOINT_INTERVAL_MS,
      work: () => checkpoints.createCheckpoints(),
    },
    {
      name: 'audit-retention',
      intervalMs: env.AUDIT_RETENTION_INTERVAL_MS,
      work: async () =>
        logger.info({ job: 'audit-retention', ...(await retention.runOnce()) }, 'retention ran'),
    },
  ],
});
