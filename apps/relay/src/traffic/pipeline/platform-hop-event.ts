import { AuditEventType, AuditableEventData, EventEnvelope, EventParty } from '@agp/contracts';

import { refusedHopEvent } from './hop-audit-events';
import { Hop } from './hop.types';

/** T103: the platform as a party of the trail (as MCP_LIFECYCLE's actor, T87). */
export const PLATFORM_PARTY: EventParty = { type: 'SERVICE', label: 'relay' };

/**
 * T103: a message the relay sends a server on its own account (a probe of its revisions) and the
 * server's answer, recorded as a hop with the platform as its source (or sink) and actor. Not
 * judged: no policy of the tenant's speaks for the platform, and what it learns serves every
 * agent alike. `hop.agent` is the party whose request made the relay ask (`details.onBehalfOf`).
 */
export function platformHopEvent(
  hop: Hop,
  reason: string,
): EventEnvelope<AuditEventType, AuditableEventData> {
  const event = refusedHopEvent(hop, { type: 'COMMUNICATION_AUDIT', action: 'LOG', reason });
  const data = event.data;
  const isRequest = hop.direction === 'REQUEST';
  const server = isRequest ? data.sink : data.source;
  const serverLabel = server?.label ?? server?.type ?? 'server';
  const path = isRequest ? `relay → ${serverLabel}` : `${serverLabel} → relay`;
  return {
    ...event,
    data: {
      ...data,
      actor: PLATFORM_PARTY,
      source: isRequest ? PLATFORM_PARTY : data.source,
      sink: isRequest ? data.sink : PLATFORM_PARTY,
      summary: `${hop.protocol} ${hop.method ?? 'message'} ${path}: LOG (${reason})`,
      details: { ...data.details, onBehalfOf: data.actor },
    },
  };
}
