import { SpanStatus } from './dto/telemetry-query.dto';

type Attributes = Record<string, unknown>;

const SPAN_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];

export interface ScopeView {
  name: string | null;
  version: string | null;
  attributes: Attributes;
}

export interface TelemetrySender {
  kind: string;
  id: string;
}

/** One span as the query answers it (A26). */
export interface SpanView {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: SpanKind;
  startTime: string;
  endTime: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  durationMs: number;
  status: { code: SpanStatus; message: string | null };
  serviceName: string | null;
  /** The agent whose token sent it; null when a user or service account did. */
  agentId: string | null;
  sender: TelemetrySender;
  attributes: Attributes;
  resourceAttributes: Attributes;
  scope: ScopeView | null;
  events: unknown[];
  links: unknown[];
  receivedAt: string;
}

export interface LogRecordView {
  time: string;
  timeUnixNano: string;
  observedTimeUnixNano: string;
  severityNumber: number;
  severityText: string | null;
  eventName: string | null;
  body: unknown;
  traceId: string | null;
  spanId: string | null;
  serviceName: string | null;
  agentId: string | null;
  sender: TelemetrySender;
  attributes: Attributes;
  resourceAttributes: Attributes;
  scope: ScopeView | null;
  receivedAt: string;
}

export interface SpanPage {
  items: SpanView[];
  nextCursor: string | null;
}

export interface LogPage {
  items: LogRecordView[];
  nextCursor: string | null;
}

/** A span in its trace's tree: depth-first, children by start time, `depth` 0 for a root. */
export interface TraceSpanView extends SpanView {
  depth: number;
}

export interface TraceView {
  traceId: string;
  spans: TraceSpanView[];
  isTruncated: boolean;
  /** A27: the audit conversations (`GET /audit/v1/traces/{correlationId}`) whose hops recorded this trace. */
  correlationIds: string[];
}

export interface SpanRow {
  id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: number;
  start_unix_nano: string;
  end_unix_nano: string;
  status_code: number;
  status_message: string | null;
  service_name: string | null;
  sender_kind: string;
  sender_id: string;
  attributes: Attributes;
  resource_attributes: Attributes;
  scope: SpanView['scope'];
  events: unknown[] | null;
  links: unknown[] | null;
  received_at: Date;
  start_time: Date;
}

export interface LogRow {
  id: string;
  log_time: Date;
  time_unix_nano: string;
  observed_unix_nano: string;
  severity_number: number;
  severity_text: string | null;
  event_name: string | null;
  body: unknown;
  trace_id: string | null;
  span_id: string | null;
  service_name: string | null;
  sender_kind: string;
  sender_id: string;
  attributes: Attributes;
  resource_attributes: Attributes;
  scope: LogRecordView['scope'];
  received_at: Date;
}

const STATUS_CODES: readonly SpanStatus[] = ['UNSET', 'OK', 'ERROR'];

function isoOfNanos(nanos: string): string {
  return new Date(Number(BigInt(nanos) / 1_000_000n)).toISOString();
}

function senderOf(row: { sender_kind: string; sender_id: string }): {
  sender: TelemetrySender;
  agentId: string | null;
} {
  return {
    sender: { kind: row.sender_kind, id: row.sender_id },
    agentId: row.sender_kind === 'AGENT' ? row.sender_id : null,
  };
}

export function spanView(row: SpanRow): SpanView {
  const durationNs = BigInt(row.end_unix_nano) - BigInt(row.start_unix_nano);
  return {
    traceId: row.trace_id,
    spanId: row.span_id,
    parentSpanId: row.parent_span_id,
    name: row.name,
    kind: SPAN_KINDS[row.kind] ?? 'UNSPECIFIED',
    startTime: isoOfNanos(row.start_unix_nano),
    endTime: isoOfNanos(row.end_unix_nano),
    startTimeUnixNano: row.start_unix_nano,
    endTimeUnixNano: row.end_unix_nano,
    durationMs: Number(durationNs) / 1e6,
    status: { code: STATUS_CODES[row.status_code] ?? 'UNSET', message: row.status_message },
    serviceName: row.service_name,
    ...senderOf(row),
    attributes: row.attributes,
    resourceAttributes: row.resource_attributes,
    scope: row.scope,
    events: row.events ?? [],
    links: row.links ?? [],
    receivedAt: row.received_at.toISOString(),
  };
}

export function logView(row: LogRow): LogRecordView {
  return {
    time: row.log_time.toISOString(),
    timeUnixNano: row.time_unix_nano,
    observedTimeUnixNano: row.observed_unix_nano,
    severityNumber: row.severity_number,
    severityText: row.severity_text,
    eventName: row.event_name,
    body: row.body,
    traceId: row.trace_id,
    spanId: row.span_id,
    serviceName: row.service_name,
    ...senderOf(row),
    attributes: row.attributes,
    resourceAttributes: row.resource_attributes,
    scope: row.scope,
    receivedAt: row.received_at.toISOString(),
  };
}

/** A span stored twice (an exporter's retry, A23) appears once (A26). */
export function spanTree(spans: SpanView[]): TraceSpanView[] {
  const unique = new Map(spans.map((span) => [span.spanId, span]));
  const children = new Map<string | null, SpanView[]>();
  for (const span of unique.values()) {
    const parent = span.parentSpanId && unique.has(span.parentSpanId) ? span.parentSpanId : null;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const ordered: TraceSpanView[] = [];
  const placed = new Set<string>();
  const place = (span: SpanView, depth: number): void => {
    if (placed.has(span.spanId)) {
      return;
    }
    placed.add(span.spanId);
    ordered.push({ ...span, depth });
    for (const child of byStart(children.get(span.spanId) ?? [])) {
      place(child, depth + 1);
    }
  };
  byStart(children.get(null) ?? []).forEach((root) => place(root, 0));
  // Parents that name each other in a cycle have no root: they are shown as roots all the same.
  byStart([...unique.values()]).forEach((span) => place(span, 0));
  return ordered;
}

function byStart(spans: SpanView[]): SpanView[] {
  return [...spans].sort((a, b) =>
    BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1,
  );
}
