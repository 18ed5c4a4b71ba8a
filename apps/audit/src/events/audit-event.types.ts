import { Action, AuditEventType, DecisionDetail, Protocol } from '@agp/contracts';

import { EventFamily } from './event-families';

export interface ActorRef {
  type: string;
  id: string | null;
  label: string | null;
}

export interface EndpointRef {
  type: string;
  id: string | null;
  name: string | null;
}

/** One audit event as stored (issue 5, item 1). */
export interface AuditEvent {
  id: string;
  tenantId: string;
  family: EventFamily;
  seq: number;
  occurredAt: string;
  recordedAt: string;
  eventType: AuditEventType;
  protocol: Protocol | null;
  action: Action | null;
  actor: ActorRef | null;
  source: EndpointRef | null;
  sink: EndpointRef | null;
  policyIds: string[];
  decision: DecisionDetail | null;
  correlationId: string | null;
  traceId: string | null;
  spanId: string | null;
  summary: string | null;
  details: Record<string, unknown> | null;
  /** Kept only when the tenant turned content capture on (A5). */
  content: string | null;
  /** SHA-256 (hex) of the content; always kept when the producer sent content or a digest. */
  contentDigest: string | null;
}

/** An event with its link in the chain: `hash = sha256(previous hash ‖ canonical form)`. */
export interface ChainedEvent extends AuditEvent {
  hash: Buffer;
}
