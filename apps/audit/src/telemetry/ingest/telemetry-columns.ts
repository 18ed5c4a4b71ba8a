import { LogItem, SpanItem } from '../otlp/otlp-items';
import { Json } from '../otlp/otlp-values';

/** Who sent an export, from its token (A22): the rows' tenant and sender, never the payload's. */
export interface Sender {
  tenantId: string;
  kind: string;
  id: string;
}

/** A `jsonb` column's value is any JSON (a log body may be a bare string); others are text or numbers. */
export type ColumnValue = Json | object;

/** A stored column: its name, its SQL type (for `jsonb_to_recordset`) and where its value comes from. */
export interface Column<T> {
  name: string;
  type: string;
  value: (item: T, sender: Sender, receivedAt: string) => ColumnValue;
  /** Never holds a character COPY's text format escapes (ids, numbers, times): written as is. */
  isPlain?: true;
}

const SENDER_COLUMNS = <T>(): Array<Column<T>> => [
  { name: 'tenant_id', type: 'uuid', value: (_i, s) => s.tenantId, isPlain: true },
  { name: 'sender_kind', type: 'text', value: (_i, s) => s.kind },
  { name: 'sender_id', type: 'text', value: (_i, s) => s.id },
  { name: 'received_at', type: 'timestamptz', value: (_i, _s, at) => at, isPlain: true },
];

const ORIGIN_COLUMNS = <T extends SpanItem | LogItem>(): Array<Column<T>> => [
  { name: 'service_name', type: 'text', value: (i) => i.serviceName },
  { name: 'attributes', type: 'jsonb', value: (i) => i.attributes },
  { name: 'resource_attributes', type: 'jsonb', value: (i) => i.resourceAttributes },
  { name: 'scope', type: 'jsonb', value: (i) => i.scope },
];

export const SPAN_COLUMNS: Array<Column<SpanItem>> = [
  ...SENDER_COLUMNS<SpanItem>(),
  { name: 'trace_id', type: 'text', value: (i) => i.traceId, isPlain: true },
  { name: 'span_id', type: 'text', value: (i) => i.spanId, isPlain: true },
  { name: 'parent_span_id', type: 'text', value: (i) => i.parentSpanId, isPlain: true },
  { name: 'trace_state', type: 'text', value: (i) => i.traceState },
  { name: 'flags', type: 'integer', value: (i) => i.flags, isPlain: true },
  { name: 'name', type: 'text', value: (i) => i.name },
  { name: 'kind', type: 'smallint', value: (i) => i.kind, isPlain: true },
  { name: 'start_time', type: 'timestamptz', value: (i) => i.startTime, isPlain: true },
  { name: 'start_unix_nano', type: 'bigint', value: (i) => i.startUnixNano, isPlain: true },
  { name: 'end_unix_nano', type: 'bigint', value: (i) => i.endUnixNano, isPlain: true },
  { name: 'status_code', type: 'smallint', value: (i) => i.statusCode, isPlain: true },
  { name: 'status_message', type: 'text', value: (i) => i.statusMessage },
  ...ORIGIN_COLUMNS<SpanItem>(),
  { name: 'events', type: 'jsonb', value: (i) => i.events },
  { name: 'links', type: 'jsonb', value: (i) => i.links },
  { name: 'dropped', type: 'jsonb', value: (i) => i.dropped },
];

export const LOG_COLUMNS: Array<Column<LogItem>> = [
  ...SENDER_COLUMNS<LogItem>(),
  { name: 'log_time', type: 'timestamptz', value: (i) => i.logTime, isPlain: true },
  { name: 'time_unix_nano', type: 'bigint', value: (i) => i.timeUnixNano, isPlain: true },
  { name: 'observed_unix_nano', type: 'bigint', value: (i) => i.observedUnixNano, isPlain: true },
  { name: 'severity_number', type: 'smallint', value: (i) => i.severityNumber, isPlain: true },
  { name: 'severity_text', type: 'text', value: (i) => i.severityText },
  { name: 'event_name', type: 'text', value: (i) => i.eventName },
  { name: 'body', type: 'jsonb', value: (i) => i.body },
  { name: 'trace_id', type: 'text', value: (i) => i.traceId, isPlain: true },
  { name: 'span_id', type: 'text', value: (i) => i.spanId, isPlain: true },
  { name: 'flags', type: 'integer', value: (i) => i.flags, isPlain: true },
  ...ORIGIN_COLUMNS<LogItem>(),
  { name: 'dropped_attributes', type: 'integer', value: (i) => i.droppedAttributes, isPlain: true },
];
