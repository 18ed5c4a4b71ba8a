import { RefusalAnswer } from './refusal-answers';
import { KillSwitchScope } from './traffic-directory';

/**
 * What the pipeline admits a call by, before any policy (D32, D35, D36): who calls what under
 * which subscription, and every target a kill switch could name. Each protocol builds one per call.
 */
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

/**
 * Why a call was not admitted. NOT_SUBSCRIBED is a 403 in every dialect; the others carry the
 * refusal (D41) and its `data`, which each protocol writes in its own shape.
 */
export type AdmissionRefusal =
  | { kind: 'NOT_SUBSCRIBED'; reason: string }
  | { kind: 'KILL_SWITCH'; reason: string; killSwitchId: string; answer: RefusalAnswer }
  | { kind: 'RATE_LIMITED'; reason: string; retryAfterSeconds: number; answer: RefusalAnswer };

/** The one target a call goes to, as an admission names it. */
export interface AdmittedTarget {
  scope: KillSwitchScope;
  id: string;
  /** `MCP server <id>`: how a refusal names it. */
  label: string;
  /** `this server`: how an open stream's ending names it. */
  noun: string;
}

/**
 * An agent's call to one target: a kill switch on the tenant, the agent or the target stops it
 * (D35); `reread` says whether the subscription still stands (D32).
 */
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
