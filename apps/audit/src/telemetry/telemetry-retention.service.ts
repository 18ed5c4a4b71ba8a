import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_ENV } from '../common/audit-env.token';
import { AuditEnv } from '../config/audit.env';
import { AUDIT_DATABASE } from '../database/tokens';
import { DEFAULT_RETENTION_DAYS } from '../events/event-families';
import { addDays } from '../events/partitions';
import {
  LOGS_TABLE,
  SPANS_TABLE,
  TelemetryPartitionsService,
} from './telemetry-partitions.service';
import { TelemetryRetentionRepository } from './telemetry-retention.repository';

export interface TelemetryRetentionRun {
  removedSpans: number;
  removedLogs: number;
  droppedPartitions: string[];
}

/**
 * A24: telemetry is kept as long as the tenant keeps its TRAFFIC events (the retention policy's
 * `days.TRAFFIC`, A3), since spans and logs describe the same traffic from inside the agent. No
 * chain to keep verifiable, so expired rows simply go; then partitions are created ahead and the
 * emptied past ones dropped, as the audit trail's are (A9, A13). Quota counts older than an hour go.
 */
@Injectable()
export class TelemetryRetentionService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(TelemetryPartitionsService) private readonly partitions: TelemetryPartitionsService,
    @Inject(AUDIT_ENV) private readonly env: AuditEnv,
    @Inject(TelemetryRetentionRepository) private readonly repository: TelemetryRetentionRepository,
  ) {}

  async runOnce(now = new Date()): Promise<TelemetryRetentionRun> {
    const [removedSpans, removedLogs] = await this.database.asSystem(async (tx) => {
      const removed: number[] = [];
      for (const table of [SPANS_TABLE, LOGS_TABLE]) {
        removed.push(
          await this.repository.removeExpired(tx, table, now, DEFAULT_RETENTION_DAYS.TRAFFIC),
        );
      }
      await this.repository.removeOldUsage(tx, now);
      return removed;
    });
    const droppedPartitions: string[] = [];
    for (const partitions of [this.partitions.spans, this.partitions.logs]) {
      await partitions.createAhead(this.env.AUDIT_PARTITIONS_AHEAD_DAYS, now);
      droppedPartitions.push(...(await partitions.dropEmptyBefore(addDays(now, -1))));
    }
    return { removedSpans: removedSpans ?? 0, removedLogs: removedLogs ?? 0, droppedPartitions };
  }
}
