import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../../database/tokens';
import { SPANS_TABLE } from '../telemetry-partitions.service';

/** A trace named by audit events, and how many of its spans the tenant's telemetry holds (A27). */
export interface TelemetryLink {
  traceId: string;
  spans: number;
}

// A27: the links between the audit trail and telemetry, both ways, through the W3C trace id a hop
// recorded (D46): an audit trace's telemetry traces, a telemetry trace's audit conversations.
@Injectable()
export class TelemetryLinksRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {
    this.schema = database.schema;
  }

  async spanCounts(tenantId: string, traceIds: string[]): Promise<TelemetryLink[]> {
    if (traceIds.length === 0) {
      return [];
    }
    const rows: Array<{ trace_id: string; spans: number }> = await this.database.inTenant(
      tenantId,
      (tx) =>
        tx.query(
          `SELECT t.trace_id, count(DISTINCT s.span_id)::int AS spans
           FROM unnest($2::text[]) AS t(trace_id)
           LEFT JOIN ${this.schema}.${SPANS_TABLE} s ON s.tenant_id = $1 AND s.trace_id = t.trace_id
           GROUP BY t.trace_id ORDER BY t.trace_id`,
          [tenantId, traceIds],
        ),
    );
    return rows.map((row) => ({ traceId: row.trace_id, spans: row.spans }));
  }

  /** The correlation ids of the audit events that recorded this trace id (at most 100). */
  async correlationIds(tenantId: string, traceId: string): Promise<string[]> {
    const rows: Array<{ correlation_id: string }> = await this.database.inTenant(tenantId, (tx) =>
      tx.query(
        `SELECT DISTINCT correlation_id FROM ${this.schema}.events
         WHERE tenant_id = $1 AND trace_id = $2 AND correlation_id IS NOT NULL
         ORDER BY correlation_id LIMIT 100`,
        [tenantId, traceId],
      ),
    );
    return rows.map((row) => row.correlation_id);
  }
}
