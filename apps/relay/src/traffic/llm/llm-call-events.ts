import {
  Action,
  AuditEventType,
  AuditableEventData,
  EventEnvelope,
  EventParty,
} from '@agp/contracts';
import { buildEvent } from '@agp/messaging';

import { EndpointRef } from '../../decisions/decision.types';
import { LlmProviderRoute } from '../pipeline/llm-route';
import { TokenUsage } from './chat-messages';
import { LlmCall, agentOf, gatewayOf } from './llm-call';
import { ProviderFailure } from './llm-upstream';

type CallEvent = EventEnvelope<AuditEventType, AuditableEventData>;

/**
 * How a call through the gateway ended (T21): SUCCESS (the completion reached the agent, masked
 * or not), BLOCKED or HELD (the completion did not, by policy or for review), ERROR (no provider
 * answered, or the one that did answered an error).
 */
export type LlmCallOutcome = 'SUCCESS' | 'BLOCKED' | 'HELD' | 'ERROR';

export interface LlmCallRecord {
  provider: LlmProviderRoute;
  model: string;
  upstreamModel: string;
  isStreamed: boolean;
  outcome: LlmCallOutcome;
  /** The decision applied to the completion (the most severe of a stream's windows). */
  action?: Action;
  httpStatus?: number;
  latencyMs: number;
  /** Streams: from the request to the first text the agent received. */
  firstTokenMs?: number;
  usage?: TokenUsage;
  /** Providers tried, the answering one included. */
  attempts: number;
  /** A stream's windows, each one judged hop (T20). */
  windows?: number;
  reason?: string;
}

function party(endpoint: EndpointRef): EventParty {
  return {
    type: endpoint.type,
    id: endpoint.id,
    ...(endpoint.name ? { label: endpoint.name } : {}),
  };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** D39: LLM_GATEWAY_CALL, the call's provider, model, tokens, latency and outcome (monitors M4). */
export function gatewayCallEvent(call: LlmCall, record: LlmCallRecord): CallEvent {
  const agent = agentOf(call);
  const tokens = record.usage?.totalTokens;
  return buildEvent(
    'LLM_GATEWAY_CALL',
    { tenantId: call.tenantId, correlationId: call.correlationId },
    {
      actor: party(agent),
      source: party(agent),
      sink: party(gatewayOf(call)),
      protocol: 'REST',
      action: record.outcome === 'ERROR' ? 'ERROR' : (record.action ?? 'LOG'),
      summary:
        `LLM call through ${call.route.gateway.name} to ${record.provider.name} (${record.upstreamModel}): ` +
        `${record.outcome} in ${Math.round(record.latencyMs)} ms${tokens !== undefined ? `, ${tokens} tokens` : ''}`,
      details: {
        llmGatewayId: call.gatewayId,
        llmProviderId: record.provider.id,
        providerName: record.provider.name,
        model: record.model,
        upstreamModel: record.upstreamModel,
        streamed: record.isStreamed,
        outcome: record.outcome,
        latencyMs: round(record.latencyMs),
        ...(record.firstTokenMs !== undefined ? { firstTokenMs: round(record.firstTokenMs) } : {}),
        ...(record.httpStatus !== undefined ? { httpStatus: record.httpStatus } : {}),
        promptTokens: record.usage?.promptTokens ?? null,
        completionTokens: record.usage?.completionTokens ?? null,
        totalTokens: record.usage?.totalTokens ?? null,
        attempts: record.attempts,
        ...(record.windows !== undefined ? { windows: record.windows } : {}),
        ...(record.reason ? { reason: record.reason } : {}),
      },
      ...(call.traceId ? { traceId: call.traceId } : {}),
    },
  );
}

/** D39: LLM_GATEWAY_FAILOVER, one per provider skipped (`llmProviderId` is the one that failed). */
export function failoverEvent(
  call: LlmCall,
  failed: LlmProviderRoute,
  next: LlmProviderRoute,
  failure: ProviderFailure,
  attempt: number,
): CallEvent {
  const agent = agentOf(call);
  return buildEvent(
    'LLM_GATEWAY_FAILOVER',
    { tenantId: call.tenantId, correlationId: call.correlationId },
    {
      actor: party(agent),
      source: party(agent),
      sink: party(gatewayOf(call)),
      protocol: 'REST',
      action: 'ERROR',
      summary: `LLM gateway ${call.route.gateway.name} failed over from ${failed.name} to ${next.name}: ${failure.message}`,
      decision: { reasons: [failure.message] },
      details: {
        llmGatewayId: call.gatewayId,
        llmProviderId: failed.id,
        providerName: failed.name,
        toLlmProviderId: next.id,
        toProviderName: next.name,
        failure: failure.kind,
        ...(failure.httpStatus !== undefined ? { httpStatus: failure.httpStatus } : {}),
        reason: failure.message,
        attempt,
      },
      ...(call.traceId ? { traceId: call.traceId } : {}),
    },
  );
}
