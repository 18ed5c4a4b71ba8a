import { Action, AuditEventType, Protocol } from '@agp/contracts';

import { AuditEvent, ChainedEvent } from './audit-event.types';
import { EventFamily } from './event-families';

/** Times come as ISO 8601 text in UTC to the millisecond, as they were hashed. */
export const EVENT_COLUMNS = `id, tenant_id, family, seq,
  to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at,
  to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at, event_type, protocol, action,
  actor_type, actor_id, actor_label, source_type, source_id, source_name, sink_type, sink_id, sink_name,
  array_to_string(policy_ids, ',') AS policy_ids, decision, correlation_id, trace_id, span_id, summary, details, content, content_digest, hash`;

export interface EventRow {
  id: string;
  tenant_id: string;
  family: EventFamily;
  seq: string;
  occurred_at: string;
  recorded_at: string;
  event_type: AuditEventType;
  protocol: Protocol | null;
  action: Action | null;
  actor_type: string | null;
  actor_id: string | null;
  actor_label: string | null;
  source_type: string | null;
  source_id: string | null;
  source_name: string | null;
  sink_type: string | null;
  sink_id: string | null;
  sink_name: string | null;
  /** Comma-separated: cheaper to split than PostgreSQL's array syntax is to parse. */
  policy_ids: string;
  decision: AuditEvent['decision'];
  correlation_id: string | null;
  trace_id: string | null;
  span_id: string | null;
  summary: string | null;
  details: Record<string, unknown> | null;
  content: string | null;
  content_digest: string | null;
  hash: Buffer;
}

export function eventOfRow(row: EventRow): ChainedEvent {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    family: row.family,
    seq: Number(row.seq),
    occurredAt: row.occurred_at,
    recordedAt: row.recorded_at,
    eventType: row.event_type,
    protocol: row.protocol,
    action: row.action,
    // Members in code unit order: their canonical form (A6) is then JSON.stringify's, nothing copied.
    actor:
      row.actor_type === null
        ? null
        : { id: row.actor_id, label: row.actor_label, type: row.actor_type },
    source:
      row.source_type === null
        ? null
        : { id: row.source_id, name: row.source_name, type: row.source_type },
    sink:
      row.sink_type === null ? null : { id: row.sink_id, name: row.sink_name, type: row.sink_type },
    policyIds: row.policy_ids === '' ? [] : row.policy_ids.split(','),
    decision: row.decision,
    correlationId: row.correlation_id,
    traceId: row.trace_id,
    spanId: row.span_id,
    summary: row.summary,
    details: row.details,
    content: row.content,
    contentDigest: row.content_digest,
    hash: row.hash,
  };
}

export function withoutHash(event: ChainedEvent): AuditEvent {
  const { hash: _hash, ...rest } = event;
  return rest;
}
