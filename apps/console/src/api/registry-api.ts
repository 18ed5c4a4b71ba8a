import type { SubscriptionKind } from '@agp/contracts';

import type {
  AgentResponse,
  CatalogEntry,
  KillSwitch,
  KillSwitchScope,
  Subscription,
} from './contracts/relay';
import type { ClientWithSecretResponseDto } from './contracts/tenant-auth';
import { Page, api, query } from './client';

const LIST = query({ pageSize: 100 });

const post = <T>(path: string, body: unknown = {}) =>
  api<T>(path, { method: 'POST', body: JSON.stringify(body) });
const remove = (path: string) => api<void>(path, { method: 'DELETE' });
const patch = <T>(path: string, body: unknown) =>
  api<T>(path, { method: 'PATCH', body: JSON.stringify(body) });

/** What the console changes of an agent (the relay's metadata; its name is tenant-auth's). */
export interface AgentChanges {
  description: string | null;
  visibility: AgentResponse['visibility'];
  riskTier: string | null;
}

/** The registry (D30, D32, D35, D37, D39): response types from the relay's and tenant-auth's contracts. */
export const registry = {
  agents: () => api<Page<AgentResponse>>(`/relay/v1/agents${LIST}`),
  // D30: an agent is a client of tenant-auth; its secret is shown once, here.
  createAgent: (name: string, description?: string) =>
    post<ClientWithSecretResponseDto>('/tenant-auth/v1/agents', { name, description }),
  updateAgent: (id: string, changes: AgentChanges) =>
    patch<AgentResponse>(`/relay/v1/agents/${id}`, changes),
  deleteAgent: (id: string) => remove(`/tenant-auth/v1/agents/${id}`),

  mcpServers: () => api<Page<CatalogEntry>>(`/relay/v1/mcp-servers${LIST}`),
  createMcpServer: (body: { name: string; url: string; description?: string }) =>
    post<CatalogEntry>('/relay/v1/mcp-servers', { ...body, transport: 'STREAMABLE_HTTP' }),
  updateMcpServer: (id: string, changes: { name: string; url: string; description?: string }) =>
    patch<CatalogEntry>(`/relay/v1/mcp-servers/${id}`, changes),
  deleteMcpServer: (id: string) => remove(`/relay/v1/mcp-servers/${id}`),

  llmGateways: () => api<Page<CatalogEntry>>(`/relay/v1/llm-gateways${LIST}`),
  llmProviders: () => api<Page<CatalogEntry>>(`/relay/v1/llm-providers${LIST}`),
  createLlmGateway: (body: { name: string; providers: string[]; description?: string }) =>
    post<CatalogEntry>('/relay/v1/llm-gateways', body),
  updateLlmGateway: (id: string, changes: { name: string; providers: string[] }) =>
    patch<CatalogEntry>(`/relay/v1/llm-gateways/${id}`, changes),
  deleteLlmGateway: (id: string) => remove(`/relay/v1/llm-gateways/${id}`),

  subscriptions: () => api<Page<Subscription>>(`/relay/v1/subscriptions${LIST}`),
  createSubscription: (body: {
    kind: SubscriptionKind;
    sourceId: string;
    targetId: string;
    tools?: string[] | null;
  }) => post<Subscription>('/relay/v1/subscriptions', body),
  updateGrant: (id: string, tools: string[] | null) =>
    patch<Subscription>(`/relay/v1/subscriptions/${id}`, { tools }),
  deleteSubscription: (id: string) => remove(`/relay/v1/subscriptions/${id}`),

  killSwitches: () => api<Page<KillSwitch>>(`/relay/v1/kill-switches${LIST}`),
  engageKillSwitch: (body: { scope: KillSwitchScope; targetId: string; reason: string }) =>
    post<KillSwitch>('/relay/v1/kill-switches', body),
  releaseKillSwitch: (id: string) => remove(`/relay/v1/kill-switches/${id}`),
};
