import { createHash } from 'node:crypto';

import { AuditEvent, ChainedEvent } from '../events/audit-event.types';
import { canonicalJson } from './canonical-json';

/** The previous hash of a chain's first event. */
export const GENESIS_HASH: Buffer = Buffer.alloc(32);

/**
 * Issue 5: each event's hash covers its canonical form and the previous event's hash. A stored
 * event may be passed as it was read: its own `hash` member is left out of the canonical form.
 */
export function chainHash(previous: Buffer, event: AuditEvent | ChainedEvent): Buffer {
  return createHash('sha256').update(previous).update(canonicalJson(event, 'hash')).digest();
}
