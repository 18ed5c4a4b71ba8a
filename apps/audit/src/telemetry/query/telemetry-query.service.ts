import { Inject, Injectable } from '@nestjs/common';
import { HttpProblem } from '@agp/http';

import {
  ListLogsQueryDto,
  ListSpansQueryDto,
  SEVERITIES,
  SPAN_STATUSES,
  TelemetryFilterQueryDto,
} from './dto/telemetry-query.dto';
import { TelemetryLinksRepository } from './telemetry-links.repository';
import { RowKey, TelemetryFilter, TelemetryQueryRepository } from './telemetry-query.repository';
import { LogPage, SpanPage, TraceView, logView, spanTree, spanView } from './telemetry-views';

/** A trace longer than this is cut; the answer says so (as A8 cuts an audit trace). */
export const MAX_TRACE_SPANS = 2_000;

function encodeCursor(key: RowKey): string {
  return Buffer.from(JSON.stringify([key.time, key.id])).toString('base64url');
}

function decodeCursor(cursor: string): RowKey {
  try {
    const [time, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof time === 'string' &&
      !Number.isNaN(Date.parse(time)) &&
      typeof id === 'string' &&
      /^\d{1,19}$/.test(id)
    ) {
      return { time, id };
    }
  } catch {
    // falls through to the problem below
  }
  const message = 'cursor is not one this API gave out';
  throw new HttpProblem(400, 'invalid-cursor', message, [{ field: 'cursor', message }]);
}

function filterOf(query: TelemetryFilterQueryDto): TelemetryFilter {
  return {
    traceId: query.traceId?.toLowerCase(),
    service: query.service,
    agentId: query.agentId,
    attributes: (query.attr ?? []).map((pair) => {
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
    from: query.from,
    to: query.to,
  };
}

/** Pages newest first; one row more than asked tells whether there is a next page. */
function pageOf<R extends { id: string }, V>(
  rows: R[],
  limit: number,
  time: (row: R) => Date,
  view: (row: R) => V,
): { items: V[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(view),
    nextCursor:
      rows.length > limit && last
        ? encodeCursor({ time: time(last).toISOString(), id: String(last.id) })
        : null,
  };
}

/** The telemetry queries (D46, D54, A26), TELEMETRY:READ. */
@Injectable()
export class TelemetryQueryService {
  constructor(
    @Inject(TelemetryQueryRepository) private readonly repository: TelemetryQueryRepository,
    @Inject(TelemetryLinksRepository) private readonly links: TelemetryLinksRepository,
  ) {}

  async spans(tenantId: string, query: ListSpansQueryDto): Promise<SpanPage> {
    const filter: TelemetryFilter = {
      ...filterOf(query),
      name: query.name,
      statusCode: query.status ? SPAN_STATUSES.indexOf(query.status) : undefined,
    };
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = await this.repository.listSpans(tenantId, filter, query.limit + 1, after);
    return pageOf(rows, query.limit, (row) => row.start_time, spanView);
  }

  async logs(tenantId: string, query: ListLogsQueryDto): Promise<LogPage> {
    const filter: TelemetryFilter = {
      ...filterOf(query),
      // OTLP's ranges: TRACE 1–4, DEBUG 5–8, INFO 9–12, WARN 13–16, ERROR 17–20, FATAL 21–24.
      minSeverity: query.severity ? SEVERITIES.indexOf(query.severity) * 4 + 1 : undefined,
    };
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = await this.repository.listLogs(tenantId, filter, query.limit + 1, after);
    return pageOf(rows, query.limit, (row) => row.log_time, logView);
  }

  async trace(tenantId: string, traceId: string): Promise<TraceView> {
    const id = traceId.toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(id)) {
      throw HttpProblem.validation([
        { field: 'traceId', message: 'traceId must be 32 hex digits' },
      ]);
    }
    const rows = await this.repository.trace(tenantId, id, MAX_TRACE_SPANS + 1);
    if (rows.length === 0) {
      throw HttpProblem.notFound(`no span of trace ${id}`);
    }
    return {
      traceId: id,
      spans: spanTree(rows.slice(0, MAX_TRACE_SPANS).map(spanView)),
      isTruncated: rows.length > MAX_TRACE_SPANS,
      correlationIds: await this.links.correlationIds(tenantId, id),
    };
  }
}
