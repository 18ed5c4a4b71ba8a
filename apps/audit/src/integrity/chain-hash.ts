import { createHash } from 'node:crypto';

import { AuditEvent } from '../events/audit-event.types';
import { canonicalJson } from './canonical-json';

/** The previous hash of a chain's first event. */
export const GENESIS_HASH: Buffer = Buffer.alloc(32);

/** Issue 5: each event's hash covers its canonical form and the previous event's hash. */
export function chainHash(previous: Buffer, event: AuditEvent): Buffer {
  return createHash('sha256').update(previous).update(canonicalJson(event)).digest();
}
