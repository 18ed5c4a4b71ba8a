import { ROOT_LOGGER } from '@agp/http';
import { schedulerProvider } from '@agp/jobs';
import { Logger } from 'pino';

import { AUDIT_ENV } from './common/audit-env.token';
import { AuditEnv } from './config/audit.env';
import { AUDIT_DATABASE } from './database/tokens';
import { CheckpointsService } from './integrity/checkpoints.service';
import { RetentionJobService } from './retention/retention-job.service';
import { TelemetryRetentionService } from './telemetry/telemetry-retention.service';

// The audit service's scheduled work, each once per interval across replicas (F30): a signed
// checkpoint (issue 5, item 5), retention with partition upkeep (A9), and the telemetry's (A24).
export const auditJobs = schedulerProvider({
  provide: Symbol.for('agp:audit:jobs'),
  database: AUDIT_DATABASE,
  inject: [
    AUDIT_ENV,
    ROOT_LOGGER,
    CheckpointsService,
    RetentionJobService,
    TelemetryRetentionService,
  ],
  jobs: (
    env: AuditEnv,
    logger: Logger,
    checkpoints: CheckpointsService,
    retention: RetentionJobService,
    telemetryRetention: TelemetryRetentionService,
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
    {
      // A24: agents' spans and logs, kept as long as the tenant's TRAFFIC events.
      name: 'telemetry-retention',
      intervalMs: env.AUDIT_RETENTION_INTERVAL_MS,
      work: async () =>
        logger.info(
          { job: 'telemetry-retention', ...(await telemetryRetention.runOnce()) },
          'telemetry retention ran',
        ),
    },
  ],
});
