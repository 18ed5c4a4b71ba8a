import { createHash } from 'node:crypto';

import { AuditEvent, ChainedEvent } from '../events/audit-event.types';
import { canonicalJson } from './canonical-json';

/** The previous hash of a chain's first event. */
export const GENESIS_HASH: Buffer = Buffer.alloc(32);

/** Every member of a stored event (A6), in canonical (code unit) order, each with its `"key":`. */
const MEMBERS: ReadonlyArray<readonly [keyof AuditEvent, string]> = (
  [
    'id', 'tenantId', 'family', 'seq', 'occurredAt', 'recordedAt', 'eventType', 'protocol', 'action', 'actor', 'source',
    'sink', 'policyIds', 'decision', 'correlationId', 'traceId', 'spanId', 'summary', 'details', 'content', 'contentDigest',
  ] satisfies Array<keyof AuditEvent>
)
  .sort()
  .map((key) => [key, `${JSON.stringify(key)}:`] as const);
const MEMBER_NAMES: ReadonlySet<string> = new Set(['hash', ...MEMBERS.map(([key]) => key)]);

/**
 * Issue 5: each event's hash covers its canonical form and the previous event's hash. A stored
 * event may be passed as it was read: its own `hash` member is left out of the canonical form.
 */
export function chainHash(previous: Buffer, event: AuditEvent | ChainedEvent): Buffer {
  return createHash('sha256').update(previous).update(canonicalEvent(event)).digest();
}

/**
 * `canonicalJson(event, 'hash')`, byte for byte, without sorting and copying the known members of
 * every event: it runs for every event stored and every event verified. An object with any other
 * member takes the general path.
 */
export function canonicalEvent(event: AuditEvent | ChainedEvent): string {
  for (const key in event) {
    if (!MEMBER_NAMES.has(key)) {
      return canonicalJson(event, 'hash');
    }
  }
  let out = '{';
  for (const [key, prefix] of MEMBERS) {
    const value: unknown = event[key];
    if (value === undefined) {
      continue;
    }
    out += `${out.length > 1 ? ',' : ''}${prefix}${value === null || typeof value !== 'object' ? JSON.stringify(value) : canonicalJson(value)}`;
  }
  return `${out}}`;
}
