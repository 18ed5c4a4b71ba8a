import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { escapeLiteral } from 'pg';

import { AUDIT_DATABASE } from '../../database/tokens';

const MINUTE_MS = 60_000;
/** Tenants whose floor this replica keeps; past it the map starts again (it is only a shortcut). */
const MAX_FLOORS = 10_000;

/** The minute an export counts in, and how many seconds remain of it (for `Retry-After`). */
export function quotaWindow(now = Date.now()): { start: string; retryAfterSeconds: number } {
  const start = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  return {
    start: new Date(start).toISOString(),
    retryAfterSeconds: Math.max(1, Math.ceil((start + MINUTE_MS - now) / 1000)),
  };
}

/**
 * A minute's count grows in the export's own transaction, after its rows (A25, A46): it moves only
 * when they commit, and the row lock is held from that statement to the commit. Each replica keeps
 * the least each tenant's count can be this minute (counts only grow within their minute, on every
 * replica), so an export that cannot fit is refused before any statement.
 */
@Injectable()
export class TelemetryQuotaRepository {
  private readonly schema: string;
  private readonly database: Database;
  private readonly floors = new Map<string, { windowStart: string; items: number }>();

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.database = database;
    this.schema = database.schema;
  }

  /** False when `count` more cannot fit this minute whatever the other replicas did. */
  mayFit(tenantId: string, windowStart: string, count: number, limit: number): boolean {
    const floor = this.floors.get(tenantId);
    const known = floor?.windowStart === windowStart ? floor.items : 0;
    return known + count <= limit;
  }

  /**
   * Adds `count` to the minute's total in `tx` unless that would pass `limit`: the new total, or
   * undefined when it would not fit. Raise the floor with the total only once `tx` committed.
   */
  async reserve(
    tx: Tx,
    tenantId: string,
    windowStart: string,
    count: number,
    limit: number,
  ): Promise<number | undefined> {
    if (count > limit) {
      return undefined;
    }
    const rows: Array<{ items: string }> = await tx.query(
      `INSERT INTO ${this.schema}.telemetry_usage AS u (tenant_id, window_start, items) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, window_start) DO UPDATE SET items = u.items + EXCLUDED.items
       WHERE u.items + EXCLUDED.items <= $4 RETURNING items`,
      [tenantId, windowStart, count, limit],
    );
    if (rows[0]) {
      return Number(rows[0].items);
    }
    // Refused: the upsert locked the row, so this reads its committed count, which never goes
    // down this minute; smaller exports that cannot fit either are then refused before any write.
    const [current]: Array<{ items: string }> = await tx.query(
      `SELECT items FROM ${this.schema}.telemetry_usage WHERE tenant_id = $1 AND window_start = $2`,
      [tenantId, windowStart],
    );
    if (current) {
      this.raiseFloor(tenantId, windowStart, Number(current.items));
    }
    return undefined;
  }

  /**
   * A49: `reserve`'s upsert as one statement of the export's simple query (so values are literals).
   * Where the total would pass `limit` it writes NULL into the NOT NULL count: the error aborts the
   * transaction, and PostgreSQL skips the COMMIT that follows in the same query (`isRefusal`).
   */
  reserveStatement(tenantId: string, windowStart: string, count: number, limit: number): string {
    if (!Number.isSafeInteger(count) || !Number.isSafeInteger(limit) || count > limit) {
      throw new RangeError(`cannot reserve ${count} of ${limit}`);
    }
    return `INSERT INTO ${this.schema}.telemetry_usage AS u (tenant_id, window_start, items)
      VALUES (${escapeLiteral(tenantId)}, ${escapeLiteral(windowStart)}, ${count})
      ON CONFLICT (tenant_id, window_start) DO UPDATE SET items =
        CASE WHEN u.items + EXCLUDED.items <= ${limit} THEN u.items + EXCLUDED.items END
      RETURNING items`;
  }

  /** The error `reserveStatement` fails with over the limit. */
  isRefusal(error: unknown): boolean {
    const e = error as { code?: string; table?: string; column?: string };
    return e?.code === '23502' && e.table === 'telemetry_usage' && e.column === 'items';
  }

  /** After a refusal rolled back: the committed count, which only grows this minute, as the floor. */
  async raiseFloorFromCommitted(tenantId: string, windowStart: string): Promise<void> {
    const [current]: Array<{ items: string }> = await this.database.asSystem((tx) =>
      tx.query(
        `SELECT items FROM ${this.schema}.telemetry_usage WHERE tenant_id = $1 AND window_start = $2`,
        [tenantId, windowStart],
      ),
    );
    if (current) {
      this.raiseFloor(tenantId, windowStart, Number(current.items));
    }
  }

  /** Remembers that the tenant's count is at least `items` this minute (only committed counts). */
  raiseFloor(tenantId: string, windowStart: string, items: number): void {
    const floor = this.floors.get(tenantId);
    if (floor?.windowStart === windowStart && floor.items >= items) {
      return;
    }
    if (this.floors.size >= MAX_FLOORS && !floor) {
      this.floors.clear();
    }
    this.floors.set(tenantId, { windowStart, items });
  }
}
