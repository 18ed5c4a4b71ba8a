import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';

/** Once per tick across replicas (issue 5, item 6): the first replica to claim a tick runs it. */
@Injectable()
export class JobRunsRepository {
  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {}

  /** True when this replica claimed the tick: nobody ran `job` in the last 90 % of the interval. */
  async claim(job: string, intervalMs: number): Promise<boolean> {
    const rows: unknown[] = await this.database.asSystem((tx) =>
      tx.query(
        `INSERT INTO ${this.database.schema}.job_runs AS r (job, ran_at) VALUES ($1, now())
         ON CONFLICT (job) DO UPDATE SET ran_at = now()
         WHERE r.ran_at <= now() - make_interval(secs => $2::double precision * 0.9 / 1000)
         RETURNING job`,
        [job, intervalMs],
      ),
    );
    return rows.length > 0;
  }
}
