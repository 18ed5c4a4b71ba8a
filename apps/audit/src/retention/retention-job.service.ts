import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_ENV } from '../common/audit-env.token';
import { AuditEnv } from '../config/audit.env';
import { AUDIT_DATABASE } from '../database/tokens';
import { EVENT_FAMILIES, EventFamily } from '../events/event-families';
import { EventPartitionsService } from '../events/event-partitions.service';
import { addDays } from '../events/partitions';
import { Checkpoint } from '../integrity/checkpoint.types';
import { CheckpointsRepository } from '../integrity/checkpoints.repository';
import { RetentionJobRepository } from './retention-job.repository';
import { RetentionRepository } from './retention.repository';

export interface RetentionRun {
  removedEvents: number;
  droppedPartitions: string[];
}

const DAY_MS = 86_400_000;

/** The scheduled removal of expired events (issue 5, item 6, A9). */
@Injectable()
export class RetentionJobService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(RetentionJobRepository) private readonly repository: RetentionJobRepository,
    @Inject(RetentionRepository) private readonly policies: RetentionRepository,
    @Inject(CheckpointsRepository) private readonly checkpoints: CheckpointsRepository,
    @Inject(EventPartitionsService) private readonly partitions: EventPartitionsService,
    @Inject(AUDIT_ENV) private readonly env: AuditEnv,
  ) {}

  /** One pass; one replica at a time (`auditJobs`, F30). */
  async runOnce(now = new Date()): Promise<RetentionRun> {
    const removedEvents = await this.database.asSystem(async (tx) => {
      let removed = 0;
      for (const { tenantId, policy } of await this.policies.allTenantPolicies(tx)) {
        const tenantCheckpoints = await this.checkpoints.allOf(tx, tenantId);
        for (const family of EVENT_FAMILIES) {
          const cutoff = new Date(now.getTime() - policy.days[family] * DAY_MS);
          const anchor = this.latestBefore(tenantCheckpoints, family, cutoff);
          if (anchor && anchor.seq > (await this.repository.anchorSeq(tx, tenantId, family))) {
            removed += await this.repository.removeThrough(tx, tenantId, family, anchor);
          }
        }
      }
      return removed;
    });
    await this.partitions.createAhead(this.env.AUDIT_PARTITIONS_AHEAD_DAYS, now);
    const droppedPartitions = await this.partitions.dropEmptyBefore(addDays(now, -1));
    return { removedEvents, droppedPartitions };
  }

  private latestBefore(
    checkpoints: Checkpoint[],
    family: EventFamily,
    cutoff: Date,
  ): { seq: number; hash: string; checkpointId: string } | undefined {
    let found: { seq: number; hash: string; checkpointId: string } | undefined;
    for (const checkpoint of checkpoints) {
      const head = checkpoint.heads.find((h) => h.family === family);
      if (head && new Date(checkpoint.createdAt) < cutoff) {
        found = { seq: head.seq, hash: head.hash, checkpointId: checkpoint.id };
      }
    }
    return found;
  }
}
