import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../database/tokens';
import { ReplaysRepository } from '../replays/replays.repository';
import { DecisionDiffsRepository } from './decision-diffs.repository';

/** governance.md G11: shadow judgements and finished replays are kept 30 days. */
export const POLICY_DIFF_RETENTION_MS = 30 * 86_400_000;

/** Removes what the retention no longer keeps; run hourly, once across replicas (F30). */
@Injectable()
export class PolicyDiffRetentionJob {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly diffs: DecisionDiffsRepository,
    private readonly replays: ReplaysRepository,
  ) {}

  async tick(now = new Date()): Promise<{ shadowDecisions: number; replays: number }> {
    const before = new Date(now.getTime() - POLICY_DIFF_RETENTION_MS);
    return this.database.asSystem(async (tx) => ({
      shadowDecisions: await this.diffs.pruneShadow(tx, before),
      replays: await this.replays.prune(tx, before),
    }));
  }
}
