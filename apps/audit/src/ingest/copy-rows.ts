import { ChainedEvent } from '../events/audit-event.types';

/** The columns of `audit.events` that the ingest writes, in the order `copyRow` writes them. */
export const COPY_COLUMNS = [
  'id',
  'tenant_id',
  'family',
  'seq',
  'occurred_at',
  'recorded_at',
  'event_type',
  'protocol',
  'action',
  'actor_type',
  'actor_id',
  'actor_label',
  'source_type',
  'source_id',
  'source_name',
  'sink_type',
  'sink_id',
  'sink_name',
  'policy_ids',
  'decision',
  'correlation_id',
  'trace_id',
  'span_id',
  'summary',
  'details',
  'content',
  'content_digest',
  'hash',
] as const;

const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format: `\N` for null; backslash, tab and line breaks escaped. */
export function field(value: string | null): string {
  if (value === null) {
    return '\\N';
  }
  return NEEDS_ESCAPE.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c] ?? c) : value;
}

function json(value: object | null): string {
  return field(value === null ? null : JSON.stringify(value));
}

// JSON members are written as JSON.stringify writes them, as the single-row INSERT sends them, so
// both read back to the same canonical form (A6).
export function copyRow(e: ChainedEvent): string {
  return [
    e.id,
    e.tenantId,
    e.family,
    String(e.seq),
    e.occurredAt,
    e.recordedAt,
    e.eventType,
    field(e.protocol),
    field(e.action),
    field(e.actor?.type ?? null),
    field(e.actor?.id ?? null),
    field(e.actor?.label ?? null),
    field(e.source?.type ?? null),
    field(e.source?.id ?? null),
    field(e.source?.name ?? null),
    field(e.sink?.type ?? null),
    field(e.sink?.id ?? null),
    field(e.sink?.name ?? null),
    `{${e.policyIds.join(',')}}`,
    json(e.decision),
    field(e.correlationId),
    field(e.traceId),
    field(e.spanId),
    field(e.summary),
    json(e.details),
    field(e.content),
    field(e.contentDigest),
    `\\\\x${e.hash.toString('hex')}`,
  ].join('\t');
}

/** Whether a text holds only whole UTF-16 characters. */
export function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}
