import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';

export interface JobRunsOptions {
  /** An unfinished run whose heartbeat is older than this belongs to a replica that died (30 s). */
  leaseMs: number;
}

const DEFAULTS: JobRunsOptions = { leaseMs: 30_000 };

/** The leader of a tick (F30, D2). */
export class JobRuns {
  readonly replica = randomUUID();
  private readonly options: JobRunsOptions;
  private readonly table: string;

  constructor(
    private readonly database: Database,
    options: Partial<JobRunsOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.table = `${database.schema}.job_runs`;
  }

  get leaseMs(): number {
    return this.options.leaseMs;
  }

  /** True when this replica runs `job`'s tick of `slot`. */
  claim(job: string, slot: Date): Promise<boolean> {
    return this.database.asSystem(async (tx) => {
      // Two replicas claiming different slots at once would each miss the other's row: the claims
      // of one job are taken one at a time (a lock held for this statement's transaction only).
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${this.table}:${job}`]);
      const rows: unknown[] = await tx.query(
        `INSERT INTO ${this.table} (job, slot, replica)
         SELECT $1, $2, $3 WHERE NOT EXISTS (
           SELECT 1 FROM ${this.table} WHERE job = $1 AND replica <> $3 AND finished_at IS NULL
             AND heartbeat_at > now() - make_interval(secs => $4::double precision / 1000))
         ON CONFLICT (job, slot) DO NOTHING RETURNING slot`,
        [job, slot, this.replica, this.options.leaseMs],
      );
      return rows.length > 0;
    });
  }

  async renew(job: string, slot: Date): Promise<void> {
    await this.database.asSystem((tx) =>
      tx.query(`UPDATE ${this.table} SET heartbeat_at = now() WHERE job = $1 AND slot = $2`, [
        job,
        slot,
      ]),
    );
  }

  /** Marks the tick done and forgets the job's runs started more than `retainMs` ago. */
  async finish(job: string, slot: Date, retainMs: number): Promise<void> {
    await this.database.asSystem(async (tx) => {
      await tx.query(`UPDATE ${this.table} SET finished_at = now() WHERE job = $1 AND slot = $2`, [
        job,
        slot,
      ]);
      await tx.query(
        `DELETE FROM ${this.table} WHERE job = $1
           AND started_at < now() - make_interval(secs => $2::double precision / 1000)`,
        [job, retainMs],
      );
    });
  }
}
