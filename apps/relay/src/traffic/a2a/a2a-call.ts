import { IncomingHttpHeaders } from 'node:http';

import { MessageDirection } from '@agp/contracts';

import { DisclosureInput, EndpointRef } from '../../decisions/decision.types';
import { Hop } from '../pipeline/hop.types';
import { CallBasis } from '../pipeline/traffic-call';
import { Admission, admissionOf } from '../pipeline/admission';
import { JsonRpcMessage } from '../mcp/json-rpc';
import { PaymentCall } from '../payments/x402-payments';
import { A2aDirectory, A2aParty, A2aRoute } from './a2a-directory';
import { a2aText, contextIdOf, taskFacts, withoutFileBytes } from './a2a-messages';
import { AgentCardJson } from './agent-card';

/** One JSON-RPC call of an agent (or of a person, D43) to an agent through the relay. */
export interface A2aCall extends CallBasis<A2aRoute> {
  /** The calling party's id: the agent's, or the person's on `/relay/human/{agentId}`. */
  callerId: string;
  /** D43, traffic.md T60: a person calls; the hop's party is the user. */
  user?: { id: string; name?: string; email?: string };
  targetId: string;
  headers: IncomingHttpHeaders;
  admission: Admission;
  /** MK23: the licence the call goes under, carried to the publisher's agent (`x-agp-licence`). */
  licence?: string;
  /** D45, traffic.md T73: what the agent's answer to the person will carry (`input.disclosure`). */
  disclosure?: DisclosureInput;
  /** GR37: the target's card as this call fetched it, when its route had none yet. */
  card?: AgentCardJson;
  /** T74: a stream's events to the person carry the disclosure and marking (`streamed`). */
  toPerson?: {
    streamed(event: JsonRpcMessage): Promise<JsonRpcMessage>;
    headers(): Record<string, string>;
  };
}

export function callerOf(call: A2aCall): EndpointRef {
  if (call.user) {
    const name = call.route.caller?.name ?? call.user.name;
    return { type: 'USER', id: call.user.id, ...(name ? { name } : {}) };
  }
  return {
    type: 'AGENT',
    id: call.callerId,
    ...(call.route.caller?.name ? { name: call.route.caller.name } : {}),
    ...(call.route.caller?.riskTier ? { riskTier: call.route.caller.riskTier } : {}),
  };
}

export function targetOf(call: A2aCall): EndpointRef {
  return { type: 'AGENT', id: call.targetId, name: call.route.target.name };
}

/** D60: the caller pays the target agent (payments.md PY10). */
export function paymentCallOf(call: A2aCall): PaymentCall {
  return {
    tenantId: call.tenantId,
    correlationId: call.correlationId,
    protocol: 'JSONRPC',
    payer: callerOf(call),
    payee: targetOf(call),
    trace: call.trace,
    ...(call.admission.subscriptionId ? { subscriptionId: call.admission.subscriptionId } : {}),
  };
}

export function a2aLabel(call: A2aCall): string {
  return `agent "${call.route.target.name}" (${call.targetId})`;
}

/**
 * D33, T31: A2A is JSON-RPC, so the audit's protocol is JSONRPC; file bytes as digests (D38), so
 * mask paths read `params.message.parts.0.text`.
 */
export function a2aHopOf(
  call: A2aCall,
  direction: MessageDirection,
  message: JsonRpcMessage,
  askedFor?: string,
): Hop {
  const caller = callerOf(call);
  const target = targetOf(call);
  const method = message.method ?? askedFor;
  const contextId = contextIdOf(message);
  return {
    tenantId: call.tenantId,
    tenantSlug: call.route.tenantSlug,
    correlationId: call.correlationId,
    protocol: 'JSONRPC',
    direction,
    source: direction === 'REQUEST' ? caller : target,
    sink: direction === 'REQUEST' ? target : caller,
    agent: caller,
    ...(call.user
      ? { user: personOf(call.user.id, call.user.email ?? call.route.caller?.email) }
      : {}),
    ...(method ? { method } : {}),
    ...(direction === 'RESPONSE' && call.disclosure ? { disclosure: call.disclosure } : {}),
    message: { json: withoutFileBytes(message).json, text: a2aText(message) },
    details: {
      a2a: true,
      ...(message.id !== undefined && message.id !== null ? { jsonRpcId: message.id } : {}),
      ...taskFacts(message),
      ...(contextId ? { a2aContextId: contextId } : {}),
    },
    trace: call.trace,
    captureContent: call.captureContent,
  };
}

/** D32, D35, D36, D43, T60: a person stands in the caller's place under USER_TO_AGENT. */
export function a2aAdmission(
  routes: A2aDirectory,
  basis: { tenantId: string; correlationId: string; route: A2aRoute },
  callerId: string,
  targetId: string,
  party: A2aParty = 'AGENT',
): Admission {
  const target = {
    scope: 'AGENT',
    id: targetId,
    label: `agent ${targetId}`,
    noun: 'this agent',
  } as const;
  const admission = admissionOf(basis, callerId, target, () =>
    routes.route(basis.tenantId, callerId, targetId, party),
  );
  const label = CALLER_LABELS[party];
  return label ? { ...admission, callerLabel: `${label} ${callerId}` } : admission;
}

const CALLER_LABELS: Readonly<Record<A2aParty, string | undefined>> = {
  AGENT: undefined,
  USER: 'user',
  INSTALLATION: 'marketplace installation',
};

/** POLICY.md `user`: the person behind the call (D43). */
function personOf(id: string, email: string | undefined): { id: string; email?: string } {
  return { id, ...(email ? { email } : {}) };
}
