import { RefusalAnswer } from './refusal-answers';
import { KillSwitchScope } from './traffic-directory';

/** D32, D35, D36: built per call by each protocol. */
export interface Admission {
  tenantId: string;
  agentId: string;
  correlationId: string;
  /** Who calls, as a refusal names them; `agent <agentId>` when absent (`user <id>`, `channel <id>`, D43). */
  callerLabel?: string;
  /** D32: the subscription the call goes under; absent when the agent has none. */
  subscriptionId?: string;
  /** The target as a refusal names it: `MCP server <id>`, `agent <id>`, `LLM gateway <id>`. */
  targetLabel: string;
  /** The target as an open stream's ending names it: `this server`, `this LLM gateway`. */
  targetNoun: string;
  /** Every target the hop touches, each with the scope a kill switch would name it by (D35). */
  targets: Array<{ scope: KillSwitchScope; id: string }>;
  /** D32: re-reads the subscription, so a withdrawn one ends an open stream within T2. */
  isStillSubscribed(): Promise<boolean>;
}

/** D41: NOT_SUBSCRIBED is a 403 in every dialect. */
export type AdmissionRefusal =
  | { kind: 'NOT_SUBSCRIBED'; reason: string }
  | { kind: 'KILL_SWITCH'; reason: string; killSwitchId: string; answer: RefusalAnswer }
  | { kind: 'RATE_LIMITED'; reason: string; retryAfterSeconds: number; answer: RefusalAnswer };

export interface AdmittedTarget {
  scope: KillSwitchScope;
  id: string;
  /** `MCP server <id>`: how a refusal names it. */
  label: string;
  /** `this server`: how an open stream's ending names it. */
  noun: string;
}

/** D35, D32: `reread` says whether the subscription still stands. */
export function admissionOf(
  basis: { tenantId: string; correlationId: string; route: { subscription?: { id: string } } },
  agentId: string,
  target: AdmittedTarget,
  reread: () => Promise<{ subscription?: unknown } | undefined>,
): Admission {
  const { tenantId, route } = basis;
  return {
    tenantId,
    agentId,
    correlationId: basis.correlationId,
    ...(route.subscription ? { subscriptionId: route.subscription.id } : {}),
    targetLabel: target.label,
    targetNoun: target.noun,
    targets: [
      { scope: 'TENANT', id: tenantId },
      { scope: 'AGENT', id: agentId },
      { scope: target.scope, id: target.id },
    ],
    isStillSubscribed: async () => (await reread())?.subscription !== undefined,
  };
}
