import { IncomingHttpHeaders } from 'node:http';

import { MessageDirection } from '@agp/contracts';

import { EndpointRef } from '../../decisions/decision.types';
import { Admission, admissionOf } from '../pipeline/admission';
import { Hop } from '../pipeline/hop.types';
import { CallBasis } from '../pipeline/traffic-call';
import { McpRoute, TrafficDirectory } from '../pipeline/traffic-directory';
import { JsonRpcMessage } from './json-rpc';
import { AskedFor, payloadText, toolOf } from './mcp-messages';

/** One HTTP exchange of an agent with an MCP server through the relay. */
export interface McpCall extends CallBasis<McpRoute> {
  agentId: string;
  serverId: string;
  agentHeaders: IncomingHttpHeaders;
  admission: Admission;
}

/** D32, D35, D36: what admits an agent's call to an MCP server, and what a switch may name. */
export function mcpAdmission(
  directory: TrafficDirectory,
  basis: { tenantId: string; correlationId: string; route: McpRoute },
  agentId: string,
  serverId: string,
): Admission {
  const target = {
    scope: 'MCP_SERVER',
    id: serverId,
    label: `MCP server ${serverId}`,
    noun: 'this server',
  } as const;
  return admissionOf(basis, agentId, target, () =>
    directory.mcpRoute(basis.tenantId, agentId, serverId),
  );
}

export function agentOf(call: McpCall): EndpointRef {
  return {
    type: 'AGENT',
    id: call.agentId,
    ...(call.route.agent?.name ? { name: call.route.agent.name } : {}),
    ...(call.route.agent?.riskTier ? { riskTier: call.route.agent.riskTier } : {}),
  };
}

export function serverOf(call: McpCall): EndpointRef {
  return { type: 'MCP_SERVER', id: call.serverId, name: call.route.server.name };
}

/**
 * D33: agent → server is a REQUEST hop, server → agent a RESPONSE hop. A response names the
 * method and tool of the request it answers, so a policy on `tools/call` sees both ways.
 */
export function hopOf(
  call: McpCall,
  direction: MessageDirection,
  message: JsonRpcMessage,
  askedFor?: AskedFor,
): Hop {
  const agent = agentOf(call);
  const server = serverOf(call);
  const method = message.method ?? askedFor?.method;
  const tool = toolOf(message) ?? askedFor?.tool;
  const sessionId = call.agentHeaders['mcp-session-id'];
  return {
    tenantId: call.tenantId,
    tenantSlug: call.route.tenantSlug,
    correlationId: call.correlationId,
    protocol: 'MCP',
    direction,
    source: direction === 'REQUEST' ? agent : server,
    sink: direction === 'REQUEST' ? server : agent,
    agent,
    ...(method ? { method } : {}),
    ...(tool ? { tool } : {}),
    message: { json: message, text: payloadText(message) },
    details: {
      ...(message.id !== undefined && message.id !== null ? { jsonRpcId: message.id } : {}),
      ...(typeof sessionId === 'string' ? { mcpSessionId: sessionId } : {}),
    },
    ...(call.traceId ? { traceId: call.traceId } : {}),
    captureContent: call.captureContent,
  };
}
