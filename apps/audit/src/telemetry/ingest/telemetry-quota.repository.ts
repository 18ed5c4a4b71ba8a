import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../../database/tokens';

const MINUTE_MS = 60_000;

/** The minute an export counts in, and how many seconds remain of it (for `Retry-After`). */
export function quotaWindow(now = Date.now()): { start: string; retryAfterSeconds: number } {
  const start = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  return {
    start: new Date(start).toISOString(),
    retryAfterSeconds: Math.max(1, Math.ceil((start + MINUTE_MS - now) / 1000)),
  };
}

/** A reservation commits on its own (a row lock held no longer than one statement) (A25). */
@Injectable()
export class TelemetryQuotaRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {
    this.schema = database.schema;
  }

  /** Adds `count` to the minute's total unless that would pass `limit`; false when it would. */
  async reserve(
    tenantId: string,
    windowStart: string,
    count: number,
    limit: number,
  ): Promise<boolean> {
    if (count > limit) {
      return false;
    }
    const rows: unknown[] = await this.database.inTenant(tenantId, (tx) =>
      tx.query(
        `INSERT INTO ${this.schema}.telemetry_usage AS u (tenant_id, window_start, items) VALUES ($1, $2, $3)
         ON CONFLICT (tenant_id, window_start) DO UPDATE SET items = u.items + EXCLUDED.items
         WHERE u.items + EXCLUDED.items <= $4 RETURNING items`,
        [tenantId, windowStart, count, limit],
      ),
    );
    return rows.length > 0;
  }

  async release(tenantId: string, windowStart: string, count: number): Promise<void> {
    await this.database.inTenant(tenantId, (tx) =>
      tx.query(
        `UPDATE ${this.schema}.telemetry_usage SET items = greatest(items - $3, 0)
         WHERE tenant_id = $1 AND window_start = $2`,
        [tenantId, windowStart, count],
      ),
    );
  }
}
