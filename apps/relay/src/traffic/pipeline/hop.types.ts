import { Action, AuditEventType, MessageDirection, Protocol } from '@agp/contracts';

import { EndpointRef, HopDecision } from '../../decisions/decision.types';

/** One message crossing a traffic path (D33): who sent it to whom, and what it says. */
export interface Hop {
  tenantId: string;
  tenantSlug?: string;
  correlationId: string;
  protocol: Protocol;
  direction: MessageDirection;
  source: EndpointRef;
  sink: EndpointRef;
  /** The agent on whose behalf the traffic flows: the audit actor (a person on D43's paths). */
  agent: EndpointRef;
  /** POLICY.md `user`: the person whose traffic this is (D43), for policies that ask. */
  user?: { id: string; email?: string };
  method?: string;
  tool?: string;
  /** POLICY.md `message`: the whole message as sent, and the text of its payload. */
  message: { json: unknown; text: string };
  /** Extra facts for the audit event's details (JSON-RPC id, session, latencies). */
  details?: Record<string, unknown>;
  traceId?: string;
  /** D40: keep the (masked) content in the audit trail, not only its digest. */
  captureContent: boolean;
}

/** A hop the relay refused before any policy ran: kill switch, grant, rate limit, upstream fault. */
export interface Refusal {
  type: Extract<AuditEventType, 'COMMUNICATION_AUDIT' | 'SKILL_RESTRICTION' | 'RATE_LIMIT'>;
  action: Action;
  reason: string;
  details?: Record<string, unknown>;
}

/** What the pipeline made of a hop: the decision and whether the message may go on. */
export interface HopVerdict {
  decision: HopDecision;
  isDelivered: boolean;
  /** The id of the hop's COMMUNICATION_AUDIT event, which a refused sender is told (D33). */
  decisionId: string;
  /** Resolves once the hop's audit events are durable; nothing reaches the agent before. */
  audited: Promise<void>;
}
