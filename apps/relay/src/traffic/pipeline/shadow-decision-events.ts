import { EventEnvelope, PolicyShadowDecisionData } from '@agp/contracts';
import { buildEvent } from '@agp/messaging';

import { DecisionSide } from '../../decisions/candidate-placement';
import { common, hopDetails, what } from './hop-audit-events';
import { Hop } from './hop.types';

/** The hop a shadow judgement is about: its audit event's id and time (the replay's key too). */
export interface JudgedHop {
  hop: Hop;
  hopId: string;
  hopAt: string;
}

/** D49, G8: never an audit event itself. */
export function shadowDecisionEvent(
  judged: JudgedHop,
  bindingId: string,
  enforced: DecisionSide,
  shadow: DecisionSide,
): EventEnvelope<'POLICY_SHADOW_DECISION', PolicyShadowDecisionData> {
  const { hop } = judged;
  return buildEvent(
    'POLICY_SHADOW_DECISION',
    { tenantId: hop.tenantId, correlationId: hop.correlationId },
    {
      ...common(hop),
      summary: `${what(hop)}: ${enforced.action} enforced, ${shadow.action} in shadow`,
      details: hopDetails(hop),
      bindingId,
      hopId: judged.hopId,
      hopAt: judged.hopAt,
      enforced: bounded(enforced),
      shadow: bounded(shadow),
    },
  );
}

/** The contract bounds each reason (2,000 characters); a longer one is cut, not refused. */
function bounded(side: DecisionSide): DecisionSide {
  return { ...side, reasons: side.reasons.map((r) => r.slice(0, 2_000)) };
}
