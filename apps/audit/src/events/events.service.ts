import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import {
  TelemetryLink,
  TelemetryLinksRepository,
} from '../telemetry/query/telemetry-links.repository';
import { AuditEventResponseDto, toEventResponse } from './dto/audit-event-response.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { EventFilter } from './event-filter';
import { EventKey, EventsRepository } from './events.repository';
import { EventsErrorCode, EventsException } from './events.exception';

/** A conversation longer than this is cut (A8); the trace says so. */
export const MAX_TRACE_EVENTS = 1_000;

export interface EventPage {
  items: AuditEventResponseDto[];
  nextCursor: string | null;
}

export interface TraceResponse {
  correlationId: string;
  items: AuditEventResponseDto[];
  isTruncated: boolean;
  /**
   * A27: the W3C traces the hops recorded (a `traceparent` came with them, D46), each with the
   * count of the agent's spans the tenant's telemetry holds: `GET /audit/v1/telemetry/traces/{traceId}`.
   */
  telemetry: TelemetryLink[];
}

function encodeCursor(key: EventKey): string {
  return Buffer.from(JSON.stringify([key.occurredAt, key.id])).toString('base64url');
}

function decodeCursor(cursor: string): EventKey {
  try {
    const [occurredAt, id] = JSON.parse(
      Buffer.from(cursor, 'base64url').toString('utf8'),
    ) as unknown[];
    if (
      typeof occurredAt === 'string' &&
      typeof id === 'string' &&
      !Number.isNaN(Date.parse(occurredAt)) &&
      /^[0-9a-f-]{36}$/.test(id)
    ) {
      return { occurredAt, id };
    }
  } catch {
    // falls through to the exception below
  }
  throw new EventsException(EventsErrorCode.INVALID_CURSOR, 'cursor is not one this API gave out');
}

export function filterOf(query: Omit<ListEventsQueryDto, 'pageSize'>): EventFilter {
  return {
    eventTypes: query.eventType,
    protocols: query.protocol,
    actions: query.action,
    actorType: query.actorType,
    actorId: query.actorId,
    sourceType: query.sourceType,
    sourceId: query.sourceId,
    sinkType: query.sinkType,
    sinkId: query.sinkId,
    policyId: query.policyId?.toLowerCase(),
    correlationId: query.correlationId,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

@Injectable()
export class EventsService {
  constructor(
    @Inject(EventsRepository) private readonly repository: EventsRepository,
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(TelemetryLinksRepository) private readonly telemetry: TelemetryLinksRepository,
  ) {}

  async list(tenantId: string, query: ListEventsQueryDto): Promise<EventPage> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const events = await this.database.inTenant(tenantId, (tx) =>
      this.repository.list(tx, tenantId, filterOf(query), query.pageSize + 1, after),
    );
    const page = events.slice(0, query.pageSize);
    const last = page[page.length - 1];
    return {
      items: page.map(toEventResponse),
      nextCursor:
        events.length > query.pageSize && last
          ? encodeCursor({ occurredAt: last.occurredAt, id: last.id })
          : null,
    };
  }

  async get(tenantId: string, id: string): Promise<AuditEventResponseDto> {
    const event = await this.database.inTenant(tenantId, (tx) =>
      this.repository.findById(tx, tenantId, id.toLowerCase()),
    );
    if (!event) {
      throw new EventsException(EventsErrorCode.EVENT_NOT_FOUND, `audit event ${id} not found`);
    }
    return toEventResponse(event);
  }

  async trace(tenantId: string, correlationId: string): Promise<TraceResponse> {
    const events = await this.database.inTenant(tenantId, (tx) =>
      this.repository.trace(tx, tenantId, correlationId, MAX_TRACE_EVENTS + 1),
    );
    if (events.length === 0) {
      throw new EventsException(
        EventsErrorCode.TRACE_NOT_FOUND,
        `no audit event has correlation id ${correlationId}`,
      );
    }
    const items = events.slice(0, MAX_TRACE_EVENTS);
    const traceIds = [...new Set(items.flatMap((e) => (e.traceId ? [e.traceId] : [])))];
    return {
      correlationId,
      items: items.map(toEventResponse),
      isTruncated: events.length > MAX_TRACE_EVENTS,
      telemetry: await this.telemetry.spanCounts(tenantId, traceIds),
    };
  }
}
