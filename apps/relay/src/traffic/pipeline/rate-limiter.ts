import { Inject, Injectable } from '@nestjs/common';
import { Database, returning, Row } from '@agp/database';

import { RELAY_DATABASE } from '../../database/tokens';

/** One counted key (D36): the tenant, an agent, or a subscription, with its per-minute limit. */
export interface RateLimitKey {
  key: string;
  perMinute: number;
}

export interface RateLimitRefusal {
  key: string;
  perMinute: number;
  retryAfterSeconds: number;
  /** True for the first refusal of this key in this minute: the one that records RATE_LIMIT. */
  isFirstInWindow: boolean;
}

/** D36, T5: counted in PostgreSQL so replicas agree; refused calls count too. */
@Injectable()
export class RateLimiter {
  constructor(@Inject(RELAY_DATABASE) private readonly database: Database) {}

  async consume(
    tenantId: string,
    keys: RateLimitKey[],
    hops: number,
  ): Promise<RateLimitRefusal | undefined> {
    if (keys.length === 0) {
      return undefined;
    }
    return this.database.inTenant(tenantId, async (tx) => {
      const rows: Row[] = await tx.query(
        `INSERT INTO relay.rate_limit_windows (tenant_id, key, window_start, count)
         SELECT $1, key, date_trunc('minute', now()), $3 FROM unnest($2::text[]) AS key
         ON CONFLICT (tenant_id, key, window_start)
           DO UPDATE SET count = relay.rate_limit_windows.count + EXCLUDED.count
         RETURNING key, count, window_start,
           ceil(extract(epoch FROM date_trunc('minute', now()) + interval '1 minute' - now())) AS retry_after`,
        [tenantId, keys.map((k) => k.key), hops],
      );
      if (rows.some((r) => Number(r.count) === hops)) {
        // A new window opened: the previous ones of this tenant are history.
        await tx.query(
          `DELETE FROM relay.rate_limit_windows
            WHERE tenant_id = $1 AND window_start < date_trunc('minute', now()) - interval '1 minute'`,
          [tenantId],
        );
      }
      const over = keys.find((k) => {
        const row = rows.find((r) => r.key === k.key);
        return row !== undefined && Number(row.count) > k.perMinute;
      });
      if (!over) {
        return undefined;
      }
      const row = rows.find((r) => r.key === over.key)!;
      const marked = await returning(
        tx,
        `UPDATE relay.rate_limit_windows SET audited = true
          WHERE tenant_id = $1 AND key = $2 AND window_start = $3 AND NOT audited RETURNING key`,
        [tenantId, over.key, row.window_start],
      );
      return {
        key: over.key,
        perMinute: over.perMinute,
        retryAfterSeconds: Math.max(1, Number(row.retry_after)),
        isFirstInWindow: marked.length > 0,
      };
    });
  }
}
