import { IncomingHttpHeaders } from 'node:http';

import { MessageDirection } from '@agp/contracts';

import { EndpointRef } from '../../decisions/decision.types';
import { Admission, admissionOf } from '../pipeline/admission';
import { Hop } from '../pipeline/hop.types';
import { CallBasis } from '../pipeline/traffic-call';
import { McpParty, McpRoute, TrafficDirectory } from '../pipeline/traffic-directory';
import { JsonRpcMessage } from './json-rpc';
import { AskedFor, payloadText, toolOf } from './mcp-messages';
import { PaymentCall } from '../payments/x402-payments';

export interface McpCall extends CallBasis<McpRoute> {
  /** The calling party's id: the agent's, or the person's (relay.md R28, D43). */
  agentId: string;
  serverId: string;
  agentHeaders: IncomingHttpHeaders;
  /** D43: a person calls through their own MCP client; the hop's party is the user. */
  user?: { id: string; name?: string; email?: string };
  admission: Admission;
  /** D52: a member's call made for a virtual server; `serverId` and `route` are the member's. */
  virtual?: VirtualOrigin;
  /** MK23, MK32: the licence the call goes under, carried to the publisher (`x-agp-licence`). */
  licence?: string;
  /** MK32: on the publisher's side, `agentId` is a marketplace installation's id. */
  viaInstallation?: boolean;
}

/** D52: the virtual server a member's call was made for, and the member's prefix in it. */
export interface VirtualOrigin {
  id: string;
  name: string;
  prefix: string;
}

/** Which subscription kind a call's route reads (D32, D43, MK32). */
export function partyOf(call: Pick<McpCall, 'user' | 'viaInstallation'>): McpParty {
  return call.user ? 'USER' : call.viaInstallation ? 'INSTALLATION' : 'AGENT';
}

/** D32, D35, D36, D43: a person stands in under USER_TO_MCP_SERVER. */
export function mcpAdmission(
  directory: TrafficDirectory,
  basis: { tenantId: string; correlationId: string; route: McpRoute },
  agentId: string,
  serverId: string,
  party: McpParty = 'AGENT',
): Admission {
  const target = {
    scope: 'MCP_SERVER',
    id: serverId,
    label: `MCP server ${serverId}`,
    noun: 'this server',
  } as const;
  return admissionOf(basis, agentId, target, () =>
    directory.mcpRoute(basis.tenantId, agentId, serverId, party),
  );
}

export function agentOf(call: McpCall): EndpointRef {
  if (call.user) {
    return { type: 'USER', id: call.user.id, ...(call.user.name ? { name: call.user.name } : {}) };
  }
  return {
    type: 'AGENT',
    id: call.agentId,
    ...(call.route.agent?.name ? { name: call.route.agent.name } : {}),
    ...(call.route.agent?.riskTier ? { riskTier: call.route.agent.riskTier } : {}),
  };
}

/** D60: the agent (or person) pays the MCP server (payments.md PY10). */
export function mcpPaymentCallOf(call: McpCall): PaymentCall {
  return {
    tenantId: call.tenantId,
    correlationId: call.correlationId,
    protocol: 'MCP',
    payer: agentOf(call),
    payee: serverOf(call),
    trace: call.trace,
    ...(call.admission.subscriptionId ? { subscriptionId: call.admission.subscriptionId } : {}),
  };
}

export function serverOf(call: McpCall): EndpointRef {
  return { type: 'MCP_SERVER', id: call.serverId, name: call.route.server.name };
}

/** D33: a response names its request's method and tool, so a `tools/call` policy sees both ways. */
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
    ...(call.user
      ? { user: { id: call.user.id, ...(call.user.email ? { email: call.user.email } : {}) } }
      : {}),
    ...(method ? { method } : {}),
    ...(tool ? { tool } : {}),
    message: { json: message, text: payloadText(message) },
    details: {
      ...(message.id !== undefined && message.id !== null ? { jsonRpcId: message.id } : {}),
      ...(typeof sessionId === 'string' ? { mcpSessionId: sessionId } : {}),
      ...(call.virtual
        ? { virtualServerId: call.virtual.id, virtualServerName: call.virtual.name }
        : {}),
    },
    ...(call.virtual
      ? {
          virtualServer: {
            type: 'MCP_SERVER',
            id: call.virtual.id,
            name: call.virtual.name,
            prefix: call.virtual.prefix,
          },
        }
      : {}),
    trace: call.trace,
    captureContent: call.captureContent,
  };
}
