import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../../database/tokens';
import { LOGS_TABLE, SPANS_TABLE } from '../telemetry-partitions.service';
import { LogRow, SpanRow } from './telemetry-views';

export interface RowKey {
  time: string;
  id: string;
}

export interface TelemetryFilter {
  traceId?: string;
  service?: string;
  agentId?: string;
  name?: string;
  statusCode?: number;
  minSeverity?: number;
  attributes: Array<[string, string]>;
  from?: string;
  to?: string;
}

const SPAN_COLUMNS = `id, trace_id, span_id, parent_span_id, name, kind, start_time, start_unix_nano,
  end_unix_nano, status_code, status_message, service_name, sender_kind, sender_id, attributes,
  resource_attributes, scope, events, links, received_at`;
const LOG_COLUMNS = `id, log_time, time_unix_nano, observed_unix_nano, severity_number, severity_text,
  event_name, body, trace_id, span_id, service_name, sender_kind, sender_id, attributes,
  resource_attributes, scope, received_at`;

/** Every telemetry read, in the caller's tenant transaction (row-level security, A24). */
@Injectable()
export class TelemetryQueryRepository {
  private readonly schema: string;

  constructor(@Inject(AUDIT_DATABASE) private readonly database: Database) {
    this.schema = database.schema;
  }

  listSpans(
    tenantId: string,
    filter: TelemetryFilter,
    limit: number,
    after?: RowKey,
  ): Promise<SpanRow[]> {
    return this.list(tenantId, SPANS_TABLE, SPAN_COLUMNS, 'start_time', filter, limit, after);
  }

  listLogs(
    tenantId: string,
    filter: TelemetryFilter,
    limit: number,
    after?: RowKey,
  ): Promise<LogRow[]> {
    return this.list(tenantId, LOGS_TABLE, LOG_COLUMNS, 'log_time', filter, limit, after);
  }

  /** One trace's spans, oldest first; the index on (tenant, trace) finds them in every partition. */
  trace(tenantId: string, traceId: string, limit: number): Promise<SpanRow[]> {
    return this.database.inTenant(tenantId, (tx) =>
      tx.query(
        `SELECT ${SPAN_COLUMNS} FROM ${this.schema}.${SPANS_TABLE}
         WHERE tenant_id = $1 AND trace_id = $2 ORDER BY start_unix_nano, id LIMIT $3`,
        [tenantId, traceId, limit],
      ),
    );
  }

  private list<T>(
    tenantId: string,
    table: string,
    columns: string,
    time: string,
    filter: TelemetryFilter,
    limit: number,
    after?: RowKey,
  ): Promise<T[]> {
    const params: unknown[] = [tenantId];
    const param = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['tenant_id = $1'];
    const equal: Array<[string, unknown]> = [
      ['trace_id', filter.traceId],
      ['service_name', filter.service],
      ['name', filter.name],
      ['status_code', filter.statusCode],
    ];
    for (const [column, value] of equal) {
      if (value !== undefined) {
        where.push(`${column} = ${param(value)}`);
      }
    }
    if (filter.agentId !== undefined) {
      where.push(`sender_kind = 'AGENT' AND sender_id = ${param(filter.agentId)}`);
    }
    if (filter.minSeverity !== undefined) {
      where.push(`severity_number >= ${param(filter.minSeverity)}`);
    }
    for (const [key, value] of filter.attributes) {
      const k = param(key);
      const v = param(value);
      where.push(`(attributes->>${k} = ${v} OR resource_attributes->>${k} = ${v})`);
    }
    if (filter.from) {
      where.push(`${time} >= ${param(filter.from)}::timestamptz`);
    }
    if (filter.to) {
      where.push(`${time} < ${param(filter.to)}::timestamptz`);
    }
    if (after) {
      where.push(`(${time}, id) < (${param(after.time)}::timestamptz, ${param(after.id)}::bigint)`);
    }
    return this.database.inTenant(tenantId, (tx) =>
      tx.query(
        `SELECT ${columns} FROM ${this.schema}.${table} WHERE ${where.join(' AND ')}
         ORDER BY ${time} DESC, id DESC LIMIT ${param(limit)}`,
        params,
      ),
    );
  }
}
