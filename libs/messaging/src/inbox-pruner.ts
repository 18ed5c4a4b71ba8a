import { Database } from '@agp/database';
import { Logger } from 'pino';

import { DAY_MS, EVENTS_MAX_AGE_MS } from './streams';

export interface InboxPrunerOptions {
  /** Rows older than this are deleted: longer than any message can come back (default 8 days). */
  retentionMs: number;
  intervalMs: number;
  batchSize: number;
}

/**
 * The events stream keeps a message 7 days (EVENTS_MAX_AGE_MS), so after that no delivery can
 * repeat it and its inbox row (D5) guards nothing; a day's margin on top.
 */
const DEFAULTS: InboxPrunerOptions = {
  retentionMs: EVENTS_MAX_AGE_MS + DAY_MS,
  intervalMs: 3_600_000,
  batchSize: 10_000,
};

/**
 * Keeps a service's inbox from growing for ever: every hour, the rows older than the retention go,
 * in batches so that no transaction holds many locks. One replica prunes at a time (a transaction
 * advisory lock per schema); a replica whose turn comes later in the hour finds almost nothing
 * left. Rows are appended in time order, so the oldest are found at the start of the table.
 */
export class InboxPruner {
  private readonly options: InboxPrunerOptions;
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    options: Partial<InboxPrunerOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.prune()
        .catch((error: unknown) => {
          this.logger.warn(
            { err: error, schema: this.database.schema },
            'inbox pruning failed; next hour',
          );
          return 0;
        })
        .finally(() => {
          this.running = undefined;
        });
    }, this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Deletes the expired rows; returns how many (0 when another replica holds the turn). */
  async prune(): Promise<number> {
    const { schema } = this.database;
    let deleted = 0;
    for (;;) {
      const batch = await this.database.asSystem(async (tx) => {
        const [turn]: Array<{ mine: boolean }> = await tx.query(
          `SELECT pg_try_advisory_xact_lock(hashtext($1)) AS mine`,
          [`${schema}.inbox-prune`],
        );
        if (!turn?.mine) {
          return undefined;
        }
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
      if (batch === undefined) {
        return deleted;
      }
      deleted += batch;
      if (batch < this.options.batchSize) {
        return deleted;
      }
    }
  }
}
