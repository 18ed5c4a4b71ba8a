import { IncomingHttpHeaders } from 'node:http';

import { MessageDirection } from '@agp/contracts';

import { EndpointRef } from '../../decisions/decision.types';
import { Admission, admissionOf } from '../pipeline/admission';
import { GatewayCallParties } from '../pipeline/gateway-call-events';
import { Hop } from '../pipeline/hop.types';
import { CallBasis } from '../pipeline/traffic-call';
import { LlmRoute } from '../pipeline/llm-route';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { PaymentCall } from '../payments/x402-payments';

/** T18: the `method` of every chat hop, as the path names it. */
export const CHAT_METHOD = 'chat/completions';

export interface LlmCall extends CallBasis<LlmRoute> {
  agentId: string;
  gatewayId: string;
  agentHeaders: IncomingHttpHeaders;
  admission: Admission;
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

/** D33, T20, R12: a RESPONSE hop is the completion or one window of a stream. */
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
    trace: call.trace,
    captureContent: call.captureContent,
  };
}

/** D32, D35, D36: what admits an agent's call to a gateway, and what a switch may name. */
export function llmAdmission(
  directory: TrafficDirectory,
  basis: { tenantId: string; correlationId: string; route: LlmRoute },
  agentId: string,
  gatewayId: string,
): Admission {
  const target = {
    scope: 'LLM_GATEWAY',
    id: gatewayId,
    label: `LLM gateway ${gatewayId}`,
    noun: 'this LLM gateway',
  } as const;
  return admissionOf(basis, agentId, target, () =>
    directory.llmRoute(basis.tenantId, agentId, gatewayId),
  );
}

/**
 * payments.md PY16–PY18: the agent pays through the gateway (the events' payee), the offer is the
 * provider's that asked (`providerIds`: the one that answered 402, or those a retry may match).
 */
export function llmPaymentCallOf(call: LlmCall, providerIds: string[]): PaymentCall {
  return {
    tenantId: call.tenantId,
    correlationId: call.correlationId,
    protocol: 'REST',
    payer: agentOf(call),
    payee: gatewayOf(call),
    trace: call.trace,
    llmGatewayId: call.gatewayId,
    ...(call.route.subscription ? { subscriptionId: call.route.subscription.id } : {}),
    offeredBy: { sinkType: LLM_PROVIDER_SINK, sinkIds: providerIds },
  };
}

/** PY16: how a provider's 402 is kept in `relay.x402_offers` (`sink_type`). */
export const LLM_PROVIDER_SINK = 'LLM_PROVIDER';

/** Who an LLM_GATEWAY_CALL or LLM_GATEWAY_FAILOVER is between (D39). */
export function partiesOf(call: LlmCall): GatewayCallParties {
  return {
    tenantId: call.tenantId,
    correlationId: call.correlationId,
    trace: call.trace,
    agent: agentOf(call),
    gateway: { ...gatewayOf(call), name: call.route.gateway.name },
  };
}
