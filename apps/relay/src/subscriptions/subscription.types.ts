import { EndpointType, SubscriptionKind } from '@agp/contracts';

/** D32: who may talk to whom; `tools` is an AGENT_TO_MCP_SERVER tool grant (null: every tool). */
export interface Subscription {
  id: string;
  kind: SubscriptionKind;
  sourceId: string;
  targetId: string;
  tools: string[] | null;
  createdAt: string;
  updatedAt: string;
}

/** The registry entry each side of a kind must name (D32: agents are tenant-auth's, D30). */
export const ENDS_OF: Readonly<
  Record<SubscriptionKind, { source: EndpointType; target: EndpointType }>
> = {
  AGENT_TO_AGENT: { source: 'AGENT', target: 'AGENT' },
  AGENT_TO_MCP_SERVER: { source: 'AGENT', target: 'MCP_SERVER' },
  AGENT_TO_LLM_GATEWAY: { source: 'AGENT', target: 'LLM_GATEWAY' },
  USER_TO_AGENT: { source: 'USER', target: 'AGENT' },
  CHANNEL_TO_AGENT: { source: 'CHANNEL', target: 'AGENT' },
  USER_TO_MCP_SERVER: { source: 'USER', target: 'MCP_SERVER' },
};

/** D32, D43 (relay.md R29): the kinds that carry a tool grant, an agent's and a person's. */
export function hasToolGrant(kind: SubscriptionKind): boolean {
  return kind === 'AGENT_TO_MCP_SERVER' || kind === 'USER_TO_MCP_SERVER';
}

/** D21: an MCP server as its subscribed agent sees it, with the path to call it through the relay. */
export interface AgentMcpServer {
  id: string;
  name: string;
  description?: string;
  transport: string;
  relayPath: string;
  subscriptionId: string;
  tools: string[] | null;
}
