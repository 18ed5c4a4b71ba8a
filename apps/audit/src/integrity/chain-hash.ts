import { createHash } from 'node:crypto';

import { AuditEvent, ChainedEvent } from '../events/audit-event.types';
import { NEEDS_CANONICAL_WALK, canonicalJson, forStringify } from './canonical-json';

export const GENESIS_HASH: Buffer = Buffer.alloc(32);

/** Every member of a stored event (A6), in canonical (code unit) order. */
export const MEMBERS: ReadonlyArray<keyof AuditEvent> = (
  [
    'id',
    'tenantId',
    'family',
    'seq',
    'occurredAt',
    'recordedAt',
    'eventType',
    'protocol',
    'action',
    'actor',
    'source',
    'sink',
    'policyIds',
    'decision',
    'correlationId',
    'traceId',
    'spanId',
    'summary',
    'details',
    'content',
    'contentDigest',
  ] satisfies Array<keyof AuditEvent>
).sort();
const MEMBER_NAMES: ReadonlySet<string> = new Set(['hash', ...MEMBERS]);

/** Issue 5: each event's hash covers its canonical form and the previous event's hash. */
export function chainHash(previous: Buffer, event: AuditEvent | ChainedEvent): Buffer {
  return createHash('sha256').update(previous).update(canonicalEvent(event)).digest();
}

// `canonicalJson(event, 'hash')`, byte for byte, without sorting and copying the known members of
// every event: one JSON.stringify of an object literal written in canonical key order (checked
// against MEMBERS by the spec).
export function canonicalEvent(event: AuditEvent | ChainedEvent): string {
  for (const key in event) {
    if (!MEMBER_NAMES.has(key)) {
      return canonicalJson(event, 'hash');
    }
  }
  const actor = forStringify(event.actor);
  const decision = forStringify(event.decision);
  const details = forStringify(event.details);
  const policyIds = forStringify(event.policyIds);
  const sink = forStringify(event.sink);
  const source = forStringify(event.source);
  if ([actor, decision, details, policyIds, sink, source].includes(NEEDS_CANONICAL_WALK)) {
    return canonicalJson(event, 'hash');
  }
  return JSON.stringify({
    action: event.action,
    actor,
    content: event.content,
    contentDigest: event.contentDigest,
    correlationId: event.correlationId,
    decision,
    details,
    eventType: event.eventType,
    family: event.family,
    id: event.id,
    occurredAt: event.occurredAt,
    policyIds,
    protocol: event.protocol,
    recordedAt: event.recordedAt,
    seq: event.seq,
    sink,
    source,
    spanId: event.spanId,
    summary: event.summary,
    tenantId: event.tenantId,
    traceId: event.traceId,
  });
}
