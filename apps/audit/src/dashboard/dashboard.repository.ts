import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { CountBy, TopEntry } from './dashboard.types';

export const TOP_SIZE = 10;

@Injectable()
export class DashboardRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) database: Database) {
    this.schema = database.schema;
  }

  async countBy(
    tx: Tx,
    tenantId: string,
    column: 'action' | 'event_type' | 'protocol',
    from: Date,
    to: Date,
  ): Promise<CountBy[]> {
    const rows: Array<{ key: string; count: string }> = await tx.query(
      `SELECT ${column} AS key, count(*) AS count FROM ${this.schema}.events
       WHERE tenant_id = $1 AND occurred_at >= $2 AND occurred_at < $3 AND ${column} IS NOT NULL
       GROUP BY 1 ORDER BY 2 DESC, 1`,
      [tenantId, from, to],
    );
    return rows.map((row) => ({ key: row.key, count: Number(row.count) }));
  }

  async top(
    tx: Tx,
    tenantId: string,
    partyType: string,
    from: Date,
    to: Date,
    orderBy: 'events' | 'blocks',
  ): Promise<TopEntry[]> {
    const rows: Array<{ id: string; label: string | null; events: string; blocks: string }> =
      await tx.query(
        `WITH parties AS (
         SELECT DISTINCT e.id AS event_id, e.occurred_at, p.id, p.label, e.action
         FROM ${this.schema}.events e
         CROSS JOIN LATERAL (VALUES (e.actor_type, e.actor_id, e.actor_label), (e.source_type, e.source_id, e.source_name),
           (e.sink_type, e.sink_id, e.sink_name)) AS p(type, id, label)
         WHERE e.tenant_id = $1 AND e.occurred_at >= $2 AND e.occurred_at < $3 AND p.type = $4 AND p.id IS NOT NULL)
       SELECT id, max(label) AS label, count(*) AS events, count(*) FILTER (WHERE action = 'BLOCK') AS blocks
       FROM parties GROUP BY id
       HAVING $5 = 'events' OR count(*) FILTER (WHERE action = 'BLOCK') > 0
       ORDER BY ${orderBy === 'events' ? 'events' : 'blocks'} DESC, id LIMIT ${TOP_SIZE}`,
        [tenantId, from, to, partyType, orderBy],
      );
    return rows.map((row) => ({
      id: row.id,
      label: row.label,
      events: Number(row.events),
      blocks: Number(row.blocks),
    }));
  }

  // A hop counts once per group, as blocked when the group's own verdict was BLOCK, whatever the
  // others said (A16).
  async topPolicies(
    tx: Tx,
    tenantId: string,
    from: Date,
    to: Date,
    orderBy: 'events' | 'blocks',
  ): Promise<TopEntry[]> {
    const rows: Array<{ id: string; label: string | null; events: string; blocks: string }> =
      await tx.query(
        `WITH verdicts AS (
         SELECT e.id AS event_id, e.occurred_at, lower(v->>'groupId') AS id, max(v->>'groupName') AS label,
           bool_or(v->>'action' = 'BLOCK') AS blocked
         FROM ${this.schema}.events e
         CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(e.details->'verdicts') = 'array'
           THEN e.details->'verdicts' ELSE '[]'::jsonb END) AS v
         WHERE e.tenant_id = $1 AND e.occurred_at >= $2 AND e.occurred_at < $3
           AND e.event_type = 'COMMUNICATION_AUDIT' AND jsonb_typeof(v->'groupId') = 'string'
         GROUP BY 1, 2, 3)
       SELECT id, (array_agg(label ORDER BY occurred_at DESC) FILTER (WHERE label IS NOT NULL))[1] AS label,
         count(*) AS events, count(*) FILTER (WHERE blocked) AS blocks
       FROM verdicts GROUP BY id
       HAVING $4 = 'events' OR count(*) FILTER (WHERE blocked) > 0
       ORDER BY ${orderBy === 'events' ? 'events' : 'blocks'} DESC, id LIMIT ${TOP_SIZE}`,
        [tenantId, from, to, orderBy],
      );
    return rows.map((row) => ({
      id: row.id,
      label: row.label,
      events: Number(row.events),
      blocks: Number(row.blocks),
    }));
  }

  async series(
    tx: Tx,
    tenantId: string,
    from: Date,
    to: Date,
    bucketSeconds: number,
  ): Promise<Map<number, { total: number; blocks: number }>> {
    const rows: Array<{ bucket: Date; total: string; blocks: string }> = await tx.query(
      `SELECT date_bin(make_interval(secs => $4), occurred_at, $2::timestamptz) AS bucket,
         count(*) AS total, count(*) FILTER (WHERE action = 'BLOCK') AS blocks
       FROM ${this.schema}.events WHERE tenant_id = $1 AND occurred_at >= $2 AND occurred_at < $3 GROUP BY 1`,
      [tenantId, from, to, bucketSeconds],
    );
    return new Map(
      rows.map((row) => [
        row.bucket.getTime(),
        { total: Number(row.total), blocks: Number(row.blocks) },
      ]),
    );
  }

  /** Holds waiting for a person (issue 12 § 4), from the trail itself (D4). */
  async pendingHitlRequests(tx: Tx, tenantId: string): Promise<number> {
    const rows: Array<{ pending: number }> = await tx.query(
      `SELECT count(*)::int AS pending FROM ${this.schema}.events h
        WHERE h.tenant_id = $1 AND h.event_type = 'HITL'
          AND h.occurred_at > now() - interval '31 days'
          AND NOT EXISTS (
            SELECT 1 FROM ${this.schema}.events r
             WHERE r.tenant_id = $1 AND r.occurred_at >= h.occurred_at
               AND r.details->>'hitlRequestId' = h.details->>'hitlRequestId'
               AND (r.event_type = 'HITL_RESOLUTION'
                    OR (r.event_type = 'HITL_GUARD' AND r.details->>'guard' = 'EXPIRED')))`,
      [tenantId],
    );
    return Number(rows[0]?.pending ?? 0);
  }
}
