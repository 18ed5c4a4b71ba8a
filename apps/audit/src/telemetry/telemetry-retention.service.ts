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

/** No chain to keep verifiable, so expired rows simply go (A9, A13, A24, A3). */
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
