import {
  Action,
  AuditEventType,
  AuditableEventData,
  EventEnvelope,
  EventParty,
} from '@agp/contracts';
import { buildEvent } from '@agp/messaging';

import { EndpointRef } from '../../decisions/decision.types';
import { CallTrace, forwardedIdsOf } from '../tracing/call-trace';
import { LlmProviderRoute } from './llm-route';

type CallEvent = EventEnvelope<AuditEventType, AuditableEventData>;

/** Who a call through an LLM gateway is between (D39), and what ties its events together. */
export interface GatewayCallParties {
  tenantId: string;
  correlationId: string;
  trace?: CallTrace;
  agent: EndpointRef;
  gateway: EndpointRef & { name: string };
}

export interface TokenUsage {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
  /** D60: `prompt_tokens_details.cached_tokens`, counted inside `promptTokens`. */
  cachedTokens?: number;
}

/** docs/decisions/spend.md SP5: a call's cost; `amountUsd` null when its model has no price. */
export interface CallCost {
  amountUsd: string | null;
  /** The model whose price was applied (SP4). */
  pricedModel?: string;
  /** SP11: the budgets whose soft limit this call reached first in their window. */
  budgetAlerts?: unknown[];
}

/** Why a provider was skipped (D39, T23). */
export interface ProviderFault {
  kind: string;
  message: string;
  httpStatus?: number;
}

/** T21: BLOCKED and HELD mean the completion did not reach the agent. */
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
export function gatewayCallEvent(
  call: GatewayCallParties,
  record: LlmCallRecord,
  cost?: CallCost,
): CallEvent {
  const agent = call.agent;
  const tokens = record.usage?.totalTokens;
  return buildEvent(
    'LLM_GATEWAY_CALL',
    { tenantId: call.tenantId, correlationId: call.correlationId },
    {
      actor: party(agent),
      source: party(agent),
      sink: party(call.gateway),
      protocol: 'REST',
      action: record.outcome === 'ERROR' ? 'ERROR' : (record.action ?? 'LOG'),
      summary:
        `LLM call through ${call.gateway.name} to ${record.provider.name} (${record.upstreamModel}): ` +
        `${record.outcome} in ${Math.round(record.latencyMs)} ms${tokens !== undefined ? `, ${tokens} tokens` : ''}`,
      details: {
        llmGatewayId: call.gateway.id,
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
        ...(record.usage?.cachedTokens !== undefined
          ? { cachedTokens: record.usage.cachedTokens }
          : {}),
        ...(cost
          ? {
              costUsd: cost.amountUsd,
              ...(cost.pricedModel ? { pricedModel: cost.pricedModel } : {}),
              ...(cost.budgetAlerts?.length ? { budgetAlerts: cost.budgetAlerts } : {}),
            }
          : {}),
        attempts: record.attempts,
        ...(record.windows !== undefined ? { windows: record.windows } : {}),
        ...(record.reason ? { reason: record.reason } : {}),
      },
      ...forwardedIdsOf(call.trace),
    },
  );
}

/** D39: LLM_GATEWAY_FAILOVER, one per provider skipped (`llmProviderId` is the one that failed). */
export function failoverEvent(
  call: GatewayCallParties,
  failed: LlmProviderRoute,
  next: LlmProviderRoute,
  failure: ProviderFault,
  attempt: number,
): CallEvent {
  const agent = call.agent;
  return buildEvent(
    'LLM_GATEWAY_FAILOVER',
    { tenantId: call.tenantId, correlationId: call.correlationId },
    {
      actor: party(agent),
      source: party(agent),
      sink: party(call.gateway),
      protocol: 'REST',
      action: 'ERROR',
      summary: `LLM gateway ${call.gateway.name} failed over from ${failed.name} to ${next.name}: ${failure.message}`,
      decision: { reasons: [failure.message] },
      details: {
        llmGatewayId: call.gateway.id,
        llmProviderId: failed.id,
        providerName: failed.name,
        toLlmProviderId: next.id,
        toProviderName: next.name,
        failure: failure.kind,
        ...(failure.httpStatus !== undefined ? { httpStatus: failure.httpStatus } : {}),
        reason: failure.message,
        attempt,
      },
      ...forwardedIdsOf(call.trace),
    },
  );
}
