import {
  WireObject,
  asObject,
  optionalNumber,
  optionalString,
  optionalStringArray,
  requiredString,
  ModelParseError,
} from './wire';

/** The client-library models of the specification ("Client-library models") (D31). */

export type AgentVisibility = 'PUBLIC' | 'PRIVATE' | 'INTERNAL';

/** An agent this agent may reach; `agentCardUrl` is the card as the relay serves it (D20, D38). */
export interface AgentInfo {
  agentId: string;
  name: string;
  description?: string;
  agentCardUrl: string;
  visibility?: AgentVisibility;
}

export function parseAgentInfo(value: unknown): AgentInfo {
  const raw = asObject(value, 'AgentInfo');
  const visibility = optionalString(raw, 'visibility');
  if (visibility !== undefined && !['PUBLIC', 'PRIVATE', 'INTERNAL'].includes(visibility)) {
    throw new ModelParseError(`visibility: expected PUBLIC, PRIVATE or INTERNAL`);
  }
  const description = optionalString(raw, 'description');
  return {
    agentId: requiredString(raw, 'AgentInfo', 'agent_id', 'agentId', 'id'),
    name: requiredString(raw, 'AgentInfo', 'name'),
    ...(description !== undefined ? { description } : {}),
    agentCardUrl: requiredString(raw, 'AgentInfo', 'agent_card_url', 'agentCardUrl'),
    ...(visibility !== undefined ? { visibility: visibility as AgentVisibility } : {}),
  };
}

/** An MCP server the agent is subscribed to (D21), with its tool grant (D32: null is every tool). */
export interface McpServerInfo {
  mcpServerId: string;
  name: string;
  description?: string;
  transport?: string;
  protocolVersion?: string;
  tools?: string[] | null;
}

export function parseMcpServerInfo(value: unknown): McpServerInfo {
  const raw = asObject(value, 'McpServerInfo');
  const info: McpServerInfo = {
    mcpServerId: requiredString(raw, 'McpServerInfo', 'mcp_server_id', 'mcpServerId', 'id'),
    name: requiredString(raw, 'McpServerInfo', 'name'),
  };
  const description = optionalString(raw, 'description');
  const transport = optionalString(raw, 'transport');
  const protocolVersion = optionalString(raw, 'protocol_version', 'protocolVersion');
  if (description !== undefined) {
    info.description = description;
  }
  if (transport !== undefined) {
    info.transport = transport;
  }
  if (protocolVersion !== undefined) {
    info.protocolVersion = protocolVersion;
  }
  if ('tools' in raw) {
    info.tools = raw.tools === null ? null : (optionalStringArray(raw, 'tools') ?? null);
  }
  return info;
}

/** An LLM gateway the agent may call (D21). */
export interface LlmGatewaySubscription {
  llmGatewayId: string;
  llmGatewayName?: string;
  tenantId?: string;
  subscribedAt?: string;
}

export function parseLlmGatewaySubscription(value: unknown): LlmGatewaySubscription {
  const raw = asObject(value, 'LlmGatewaySubscription');
  const row: LlmGatewaySubscription = {
    // A D32 subscription row names the gateway as its target.
    llmGatewayId: requiredString(
      raw,
      'LlmGatewaySubscription',
      'llmGatewayId',
      'llm_gateway_id',
      'targetId',
      'target_id',
    ),
  };
  const name = optionalString(raw, 'llmGatewayName', 'llm_gateway_name');
  const tenantId = optionalString(raw, 'tenantId', 'tenant_id');
  const subscribedAt = optionalString(
    raw,
    'subscribedAt',
    'subscribed_at',
    'createdAt',
    'created_at',
  );
  if (name !== undefined) {
    row.llmGatewayName = name;
  }
  if (tenantId !== undefined) {
    row.tenantId = tenantId;
  }
  if (subscribedAt !== undefined) {
    row.subscribedAt = subscribedAt;
  }
  return row;
}

export type SubscriptionKind =
  | 'AGENT_TO_AGENT'
  | 'AGENT_TO_MCP_SERVER'
  | 'AGENT_TO_LLM_GATEWAY'
  | 'USER_TO_AGENT'
  | 'CHANNEL_TO_AGENT';

/** A D32 subscription: `sourceId` may talk to `targetId`. */
export interface Subscription {
  id: string;
  kind: SubscriptionKind;
  sourceId: string;
  targetId: string;
  tools: string[] | null;
  createdAt?: string;
}

export function parseSubscription(value: unknown): Subscription {
  const raw = asObject(value, 'Subscription');
  const createdAt = optionalString(raw, 'createdAt', 'created_at');
  return {
    id: requiredString(raw, 'Subscription', 'id', 'subscription_id', 'subscriptionId'),
    kind: requiredString(raw, 'Subscription', 'kind') as SubscriptionKind,
    sourceId: requiredString(raw, 'Subscription', 'sourceId', 'source_id'),
    targetId: requiredString(raw, 'Subscription', 'targetId', 'target_id'),
    tools: optionalStringArray(raw, 'tools') ?? null,
    ...(createdAt !== undefined ? { createdAt } : {}),
  };
}

/** D21: what a refresh of the agent's card found. */
export interface AgentCardRefreshResult {
  status: 'unchanged' | 'updated';
  changedFields: string[];
}

export function parseAgentCardRefreshResult(value: unknown): AgentCardRefreshResult {
  const raw = asObject(value, 'AgentCardRefreshResult');
  const status = requiredString(raw, 'AgentCardRefreshResult', 'status');
  if (status !== 'unchanged' && status !== 'updated') {
    throw new ModelParseError(`status: expected unchanged or updated`);
  }
  return {
    status,
    changedFields: optionalStringArray(raw, 'changedFields', 'changed_fields') ?? [],
  };
}

/** A page of D31's shape. */
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export function parsePage<T>(value: unknown, item: (raw: unknown) => T): Page<T> {
  const raw: WireObject = asObject(value, 'Page');
  if (!Array.isArray(raw.items)) {
    throw new ModelParseError('Page: items must be an array');
  }
  return {
    items: raw.items.map(item),
    page: optionalNumber(raw, 'page') ?? 1,
    pageSize: optionalNumber(raw, 'pageSize', 'page_size') ?? raw.items.length,
    total: optionalNumber(raw, 'total') ?? raw.items.length,
  };
}
