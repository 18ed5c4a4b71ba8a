import { IncomingHttpHeaders } from 'node:http';

import { MessageDirection } from '@agp/contracts';

import { EndpointRef } from '../../decisions/decision.types';
import { Hop } from '../pipeline/hop.types';
import { CallBasis } from '../pipeline/traffic-call';
import { LlmRoute } from '../pipeline/llm-route';
import { GuardSubject } from '../pipeline/traffic-guard';

/** T18: the `method` of every chat hop, as the path names it. */
export const CHAT_METHOD = 'chat/completions';

/** One chat completion of an agent through an LLM gateway. */
export interface LlmCall extends CallBasis<LlmRoute> {
  agentId: string;
  gatewayId: string;
  agentHeaders: IncomingHttpHeaders;
}

export function agentOf(call: LlmCall): EndpointRef {
  return {
    type: 'AGENT',
    id: call.agentId,
    ...(call.route.agent?.name ? { name: call.route.agent.name } : {}),
    ...(call.route.agent?.riskTier ? { riskTier: call.route.agent.riskTier } : {}),
  };
}

export function gatewayOf(call: LlmCall): EndpointRef {
  return { type: 'LLM_GATEWAY', id: call.gatewayId, name: call.route.gateway.name };
}

/**
 * D33 on the LLM path: agent → gateway is a REQUEST hop (the chat request), gateway → agent a
 * RESPONSE hop (the completion, or one window of a streamed one; T20). Protocol REST (R12).
 */
export function hopOf(
  call: LlmCall,
  direction: MessageDirection,
  message: { json: unknown; text: string },
  details: Record<string, unknown> = {},
): Hop {
  const agent = agentOf(call);
  const gateway = gatewayOf(call);
  return {
    tenantId: call.tenantId,
    tenantSlug: call.route.tenantSlug,
    correlationId: call.correlationId,
    protocol: 'REST',
    direction,
    source: direction === 'REQUEST' ? agent : gateway,
    sink: direction === 'REQUEST' ? gateway : agent,
    agent,
    method: CHAT_METHOD,
    message,
    details,
    ...(call.traceId ? { traceId: call.traceId } : {}),
    captureContent: call.captureContent,
  };
}

/** D35, D36: what a kill switch or a rate limit may name on an agent's call to a gateway. */
export function guardSubjectOf(call: LlmCall): GuardSubject {
  return {
    tenantId: call.tenantId,
    agentId: call.agentId,
    ...(call.route.subscription ? { subscriptionId: call.route.subscription.id } : {}),
    targets: [
      { scope: 'TENANT', id: call.tenantId },
      { scope: 'AGENT', id: call.agentId },
      { scope: 'LLM_GATEWAY', id: call.gatewayId },
    ],
  };
}
