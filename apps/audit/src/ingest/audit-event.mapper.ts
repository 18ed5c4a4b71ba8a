import { createHash } from 'node:crypto';
import { AuditEventType, AuditableEventData, EventEnvelope, EventParty } from '@agp/contracts';

import { ActorRef, AuditEvent, EndpointRef } from '../events/audit-event.types';
import { familyOf } from '../events/event-families';

/** Members of the common auditable payload; anything else a payload carries goes to `details`. */
const COMMON_FIELDS = new Set([
  'actor',
  'source',
  'sink',
  'protocol',
  'action',
  'policyIds',
  'summary',
  'details',
  'decision',
  'traceId',
  'spanId',
  'content',
  'contentDigest',
]);

// Members in code unit order: the canonical form (A6) of an object so built is JSON.stringify's.
function actorOf(party: EventParty | undefined): ActorRef | null {
  return party ? { id: party.id ?? null, label: party.label ?? null, type: party.type } : null;
}

function endpointOf(party: EventParty | undefined): EndpointRef | null {
  return party ? { id: party.id ?? null, name: party.label ?? null, type: party.type } : null;
}

// D42: the sink of an administrative change is its target, so that `sinkType`/`sinkId` find a
// resource's changes: the producer's sink when it named one, else the changed fields' `target`.
function sinkOf(data: AuditableEventData): EventParty | undefined {
  if (data.sink) {
    return data.sink;
  }
  const target = ((data as { target?: unknown }).target ?? data.details?.target) as
    { kind?: unknown; id?: unknown; name?: unknown } | undefined;
  if (typeof target?.kind !== 'string' || typeof target.id !== 'string') {
    return undefined;
  }
  return {
    type: target.kind,
    id: target.id,
    ...(typeof target.name === 'string' ? { label: target.name } : {}),
  };
}

/** The `details` column: the payload's own members beyond the common ones, then `details` over them. */
export function detailsOf(data: Record<string, unknown>): Record<string, unknown> | null {
  const specific = Object.fromEntries(
    Object.entries(data).filter(([key]) => !COMMON_FIELDS.has(key)),
  );
  const given = (data.details as Record<string, unknown> | undefined) ?? {};
  const merged = { ...specific, ...given };
  return Object.keys(merged).length > 0 ? merged : null;
}

function digestOf(data: AuditableEventData): string | null {
  if (typeof data.content === 'string') {
    return createHash('sha256').update(data.content, 'utf8').digest('hex');
  }
  return data.contentDigest ?? null;
}

/** The content is kept only when the tenant captures content (A5, issue 5, item 1). */
export function toAuditEvent(
  envelope: EventEnvelope<AuditEventType, AuditableEventData>,
  recordedAt: Date,
  captureContent: boolean,
): Omit<AuditEvent, 'seq'> {
  const data = envelope.data;
  return {
    id: envelope.id.toLowerCase(),
    tenantId: envelope.tenantId.toLowerCase(),
    family: familyOf(envelope.type),
    occurredAt: new Date(envelope.occurredAt).toISOString(),
    recordedAt: recordedAt.toISOString(),
    eventType: envelope.type,
    protocol: data.protocol ?? null,
    action: data.action ?? null,
    actor: actorOf(data.actor),
    source: endpointOf(data.source),
    sink: endpointOf(sinkOf(data)),
    policyIds: (data.policyIds ?? []).map((id) => id.toLowerCase()),
    decision: data.decision
      ? (JSON.parse(JSON.stringify(data.decision)) as AuditEvent['decision'])
      : null,
    correlationId: envelope.correlationId ?? null,
    traceId: data.traceId ?? null,
    spanId: data.spanId ?? null,
    summary: data.summary ?? null,
    details: detailsOf(data as unknown as Record<string, unknown>),
    content: captureContent && typeof data.content === 'string' ? data.content : null,
    contentDigest: digestOf(data),
  };
}
