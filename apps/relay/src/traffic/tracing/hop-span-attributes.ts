import { Attributes } from '@opentelemetry/api';

import { HopDecision } from '../../decisions/decision.types';
import { usageOf } from '../llm/chat-messages';
import { Hop } from '../pipeline/hop.types';

/** The attribute the relay's exporter files a span under: the hop's tenant (T92). */
export const TENANT_ATTRIBUTE = 'agp.tenant.id';

/**
 * traffic.md T91: OpenTelemetry's GenAI and MCP semantic conventions, where the hop says. An MCP
 * `tools/call` is `execute_tool`, an LLM chat `chat`, an A2A message `invoke_agent`.
 */
function operationOf(hop: Hop): string | undefined {
  if (hop.protocol === 'MCP') {
    return hop.method === 'tools/call' ? 'execute_tool' : undefined;
  }
  if (hop.protocol === 'REST') {
    return 'chat';
  }
  return hop.details?.a2a === true ? 'invoke_agent' : undefined;
}

/** `{mcp.method.name} {target}` for MCP, `{gen_ai.operation.name} {target}` otherwise. */
export function hopSpanName(hop: Hop): string {
  const target = hop.tool ?? modelOf(hop) ?? (hop.protocol === 'MCP' ? undefined : sinkName(hop));
  const operation = hop.protocol === 'MCP' ? hop.method : (operationOf(hop) ?? hop.method);
  return [operation ?? `${hop.protocol} message`, target].filter(Boolean).join(' ');
}

function sinkName(hop: Hop): string | undefined {
  const party = hop.direction === 'REQUEST' ? hop.sink : hop.source;
  return party.name;
}

function modelOf(hop: Hop): string | undefined {
  if (hop.protocol !== 'REST') {
    return undefined;
  }
  const model = (hop.message.json as { model?: unknown } | null)?.model;
  return typeof model === 'string' ? model : undefined;
}

/** What a hop's span says before its decision. */
export function hopAttributes(hop: Hop): Attributes {
  const details = hop.details ?? {};
  const model = modelOf(hop);
  const usage = hop.direction === 'RESPONSE' ? usageOf(hop.message.json) : undefined;
  const operation = operationOf(hop);
  const sessionId = details.mcpSessionId;
  const rpcId = details.jsonRpcId;
  return {
    [TENANT_ATTRIBUTE]: hop.tenantId,
    'agp.correlation_id': hop.correlationId,
    'agp.protocol': hop.protocol,
    'agp.hop.direction': hop.direction,
    'gen_ai.agent.id': hop.agent.id,
    ...(hop.agent.name ? { 'gen_ai.agent.name': hop.agent.name } : {}),
    ...(operation ? { 'gen_ai.operation.name': operation } : {}),
    ...(hop.tool ? { 'gen_ai.tool.name': hop.tool } : {}),
    ...(model
      ? { [hop.direction === 'REQUEST' ? 'gen_ai.request.model' : 'gen_ai.response.model']: model }
      : {}),
    ...(usage?.promptTokens !== undefined
      ? { 'gen_ai.usage.input_tokens': usage.promptTokens }
      : {}),
    ...(usage?.completionTokens !== undefined
      ? { 'gen_ai.usage.output_tokens': usage.completionTokens }
      : {}),
    ...(hop.protocol === 'MCP' && hop.method ? { 'mcp.method.name': hop.method } : {}),
    ...(typeof sessionId === 'string' ? { 'mcp.session.id': sessionId } : {}),
    ...(typeof rpcId === 'string' || typeof rpcId === 'number'
      ? { 'jsonrpc.request.id': String(rpcId) }
      : {}),
    ...(hop.method && hop.protocol !== 'MCP' ? { 'rpc.method': hop.method } : {}),
  };
}

/** The decision a hop came to, and the audit event that records it (D22, D33). */
export function decisionAttributes(
  decision: Pick<HopDecision, 'action'> & { bindings?: HopDecision['bindings'] },
  decisionId: string,
): Attributes {
  const policyIds = [...new Set((decision.bindings ?? []).map((b) => b.groupId))];
  return {
    'agp.decision.action': decision.action,
    'agp.decision.id': decisionId,
    ...(policyIds.length > 0 ? { 'agp.decision.policy_ids': policyIds } : {}),
  };
}
