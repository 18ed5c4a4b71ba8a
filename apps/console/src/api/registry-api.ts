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

/** An LLM provider as the console writes it (D39): `apiKey` only when it is set or replaced. */
export interface LlmProviderChanges {
  name: string;
  baseUrl: string;
  description?: string | null;
  /** Write-only (D37): sent to set or replace the key, never read back. */
  apiKey?: string;
  /** `null` (on update) or absent: any model the caller names. */
  models?: string[] | null;
}

/** The registry (D30, D32, D35, D37, D39): response types from the relay's and tenant-auth's contracts. */
export const registry = {
  agents: () => api<Page<AgentResponse>>(`/relay/v1/agents${LIST}`),
  // D30: an agent is a client of tenant-auth; its secret is shown once, here.
  createAgent: (name: string, description?: string) =>
    post<ClientWithSecretResponseDto>('/tenant-auth/v1/agents', { name, description }),
  updateAgent: (id: string, changes: AgentChanges) =>
    patch<AgentResponse>(`/relay/v1/agents/${id}`, changes),
  // D30: the name is the identity's, in tenant-auth; the relay's list follows its event.
  renameAgent: (id: string, name: string) =>
    patch<Omit<ClientWithSecretResponseDto, 'clientSecret'>>(`/tenant-auth/v1/agents/${id}`, {
      name,
    }),
  // D30: a new secret, shown once; the old one stops working at once.
  rotateAgentSecret: (id: string) =>
    post<ClientWithSecretResponseDto>(`/tenant-auth/v1/agents/${id}/rotate-secret`),
  deleteAgent: (id: string) => remove(`/tenant-auth/v1/agents/${id}`),

  mcpServers: () => api<Page<CatalogEntry>>(`/relay/v1/mcp-servers${LIST}`),
  createMcpServer: (body: { name: string; url: string; description?: string }) =>
    post<CatalogEntry>('/relay/v1/mcp-servers', { ...body, transport: 'STREAMABLE_HTTP' }),
  // D52: a server of the relay's own over registered ones, each under its default prefix.
  createVirtualMcpServer: (body: { name: string; members: { serverId: string }[] }) =>
    post<CatalogEntry>('/relay/v1/mcp-servers', { ...body, transport: 'VIRTUAL' }),
  updateMcpServer: (id: string, changes: { name: string; url?: string; description?: string }) =>
    patch<CatalogEntry>(`/relay/v1/mcp-servers/${id}`, changes),
  deleteMcpServer: (id: string) => remove(`/relay/v1/mcp-servers/${id}`),

  llmGateways: () => api<Page<CatalogEntry>>(`/relay/v1/llm-gateways${LIST}`),
  llmProviders: () => api<Page<CatalogEntry>>(`/relay/v1/llm-providers${LIST}`),
  createLlmProvider: (body: LlmProviderChanges) =>
    post<CatalogEntry>('/relay/v1/llm-providers', body),
  updateLlmProvider: (id: string, changes: Partial<LlmProviderChanges>) =>
    patch<CatalogEntry>(`/relay/v1/llm-providers/${id}`, changes),
  deleteLlmProvider: (id: string) => remove(`/relay/v1/llm-providers/${id}`),
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
