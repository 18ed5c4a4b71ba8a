import { Database } from '@agp/database';
import { JobRuns, ScheduledJob } from '@agp/jobs';
import { Logger } from 'pino';

import { DAY_MS, EVENTS_MAX_AGE_MS } from './streams';

export interface InboxPrunerOptions {
  retentionMs: number;
  intervalMs: number;
  batchSize: number;
}

// The events stream keeps a message 7 days (EVENTS_MAX_AGE_MS), so after that no delivery can
// repeat it and its inbox row (D5) guards nothing; a day's margin on top.
const DEFAULTS: InboxPrunerOptions = {
  retentionMs: EVENTS_MAX_AGE_MS + DAY_MS,
  intervalMs: 3_600_000,
  batchSize: 10_000,
};

/** Rows are appended in time order, so the oldest are found at the start of the table (F30). */
export class InboxPruner {
  private readonly options: InboxPrunerOptions;
  private readonly job: ScheduledJob<number>;

  constructor(
    private readonly database: Database,
    logger: Logger,
    options: Partial<InboxPrunerOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.job = new ScheduledJob({
      name: 'inbox-prune',
      intervalMs: this.options.intervalMs,
      runs: new JobRuns(database),
      work: () => this.prune(),
      logger,
    });
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  async prune(): Promise<number> {
    const { schema } = this.database;
    let deleted = 0;
    for (;;) {
      const batch = await this.database.asSystem(async (tx) => {
        const [gone]: Array<{ count: number }> = await tx.query(
          `WITH gone AS (
             DELETE FROM ${schema}.inbox WHERE ctid = ANY(ARRAY(
               SELECT ctid FROM ${schema}.inbox WHERE processed_at < now() - make_interval(secs => $1) LIMIT $2))
             RETURNING 1)
           SELECT count(*)::int AS count FROM gone`,
          [this.options.retentionMs / 1_000, this.options.batchSize],
        );
        return gone?.count ?? 0;
      });
      deleted += batch;
      if (batch < this.options.batchSize) {
        return deleted;
      }
    }
  }
}
