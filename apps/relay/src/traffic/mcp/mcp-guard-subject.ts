import { GuardSubject } from '../pipeline/traffic-guard';
import { McpCall } from './mcp-call';

/** D35, D36: what a kill switch or a rate limit may name on an agent's call to an MCP server. */
export function guardSubject(call: McpCall): GuardSubject {
  return {
    tenantId: call.tenantId,
    agentId: call.agentId,
    ...(call.route.subscription ? { subscriptionId: call.route.subscription.id } : {}),
    targets: [
      { scope: 'TENANT', id: call.tenantId },
      { scope: 'AGENT', id: call.agentId },
      { scope: 'MCP_SERVER', id: call.serverId },
    ],
  };
}
