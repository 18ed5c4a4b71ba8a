import { AuditEventType, AuditableEventData, EventEnvelope } from '@agp/contracts';
import { buildEvent } from '@agp/messaging';

import { SyntheticMarking } from '../disclosure/disclosure-terms';
import { common, hopDetails, what } from './hop-audit-events';
import { Hop } from './hop.types';

type HopEvent = EventEnvelope<AuditEventType, AuditableEventData>;

/** What one delivery to a person carried (in its channel's native form, CH15–CH18, T72). */
export interface Carried {
  disclosure?: string;
  marking?: SyntheticMarking;
}

/** D45, T71: one AI_DISCLOSURE per disclosure made, one SYNTHETIC_CONTENT_MARKING per marking. */
export function disclosureEvents(
  hop: Hop,
  conversationKey: string,
  carried: Carried,
  form: string,
): HopEvent[] {
  const context = { tenantId: hop.tenantId, correlationId: hop.correlationId };
  const details = { ...hopDetails(hop), conversationKey, form };
  const events: HopEvent[] = [];
  if (carried.disclosure !== undefined) {
    events.push(
      buildEvent('AI_DISCLOSURE', context, {
        ...common(hop),
        action: 'LOG',
        summary: `${what(hop)}: told the person they talk to an AI`,
        details: { ...details, text: carried.disclosure },
      }),
    );
  }
  if (carried.marking) {
    events.push(
      buildEvent('SYNTHETIC_CONTENT_MARKING', context, {
        ...common(hop),
        action: 'LOG',
        summary: `${what(hop)}: marked as AI-generated`,
        details: { ...details, marking: carried.marking },
      }),
    );
  }
  return events;
}
