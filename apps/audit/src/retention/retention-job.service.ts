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
  /** Conversation index rows whose hops retention removed (CV16). */
  prunedConversationHops: number;
  removedConversations: number;
}

const DAY_MS = 86_400_000;
/** The family of every event a conversation indexes (COMMUNICATION_AUDIT, RATE_LIMIT, SKILL_RESTRICTION). */
const HOP_FAMILY: EventFamily = 'TRAFFIC';

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
    const trafficThrough = new Map<string, Date>();
    const removedEvents = await this.database.asSystem(async (tx) => {
      let removed = 0;
      for (const { tenantId, policy } of await this.policies.allTenantPolicies(tx)) {
        const tenantCheckpoints = await this.checkpoints.allOf(tx, tenantId);
        for (const family of EVENT_FAMILIES) {
          const cutoff = new Date(now.getTime() - policy.days[family] * DAY_MS);
          const anchor = this.latestBefore(tenantCheckpoints, family, cutoff);
          if (anchor && anchor.seq > (await this.repository.anchorSeq(tx, tenantId, family))) {
            const gone = await this.repository.removeThrough(tx, tenantId, family, anchor);
            removed += gone.count;
            if (family === HOP_FAMILY && gone.lastOccurredAt) {
              trafficThrough.set(tenantId, gone.lastOccurredAt);
            }
          }
        }
      }
      return removed;
    });
    // Each tenant's index in a short transaction of its own, after the removal committed, so the
    // ingest waits on the index's lock only briefly (CV16).
    let prunedConversationHops = 0;
    let removedConversations = 0;
    for (const [tenantId, through] of trafficThrough) {
      const pruned = await this.database.asSystem((tx) =>
        this.repository.pruneConversations(tx, tenantId, through),
      );
      prunedConversationHops += pruned.hops;
      removedConversations += pruned.conversations;
    }
    await this.partitions.createAhead(this.env.AUDIT_PARTITIONS_AHEAD_DAYS, now);
    const droppedPartitions = await this.partitions.dropEmptyBefore(addDays(now, -1));
    return { removedEvents, droppedPartitions, prunedConversationHops, removedConversations };
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
