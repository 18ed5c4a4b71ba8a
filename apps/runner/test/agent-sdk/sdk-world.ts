import { randomUUID } from 'node:crypto';

import { AgentClient, AgentClientOptions, AgentConfig, TokenScope } from '@agp/agent-sdk';
import { eventually } from '@agp/testing';

import { McpWorld } from '../mcp/mcp-world';

/** An agent of a test tenant as the client library sees it: its id, secret and client config. */
export interface SdkAgent {
  id: string;
  secret: string;
  config: AgentConfig;
}

/** The addresses and fast retries every test client uses (backoff of 10 ms, not 500 ms). */
export function agentConfig(
  baseUrl: string,
  id: string,
  secret: string,
  extra: Partial<AgentConfig> = {},
): AgentConfig {
  return {
    agentId: id,
    clientSecret: secret,
    baseUrl,
    tokenUrl: `${baseUrl}/tenant-auth/v1/oauth/token`,
    timeoutMs: 10_000,
    maxRetries: 3,
    retryBaseDelayMs: 10,
    ...extra,
  };
}

/** Registers an agent in tenant-auth (D30) and waits until the relay knows it. */
export async function registerAgent(world: McpWorld): Promise<SdkAgent> {
  const created = await world.ok<{ id: string; clientSecret: string }>(
    'POST',
    '/tenant-auth/v1/agents',
    { name: `sdk-${randomUUID().slice(0, 8)}` },
  );
  await eventually(async () => {
    expect((await world.api('GET', `/relay/v1/agents/${created.id}`)).status).toBe(200);
  });
  return {
    id: created.id,
    secret: created.clientSecret,
    config: agentConfig(world.platform.baseUrl, created.id, created.clientSecret),
  };
}

/** D39: an OpenAI-compatible provider behind a new gateway, the agent subscribed to it (D32). */
export async function subscribeToLlmGateway(
  world: McpWorld,
  agentId: string,
  providerBaseUrl: string,
): Promise<string> {
  const provider = await world.ok<{ id: string }>('POST', '/relay/v1/llm-providers', {
    name: `provider-${randomUUID().slice(0, 8)}`,
    baseUrl: providerBaseUrl,
    apiKey: 'sk-provider-key',
  });
  const gateway = await world.ok<{ id: string }>('POST', '/relay/v1/llm-gateways', {
    name: `gateway-${randomUUID().slice(0, 8)}`,
    providers: [provider.id],
  });
  await world.ok('POST', '/relay/v1/subscriptions', {
    kind: 'AGENT_TO_LLM_GATEWAY',
    sourceId: agentId,
    targetId: gateway.id,
  });
  return gateway.id;
}

/** A client that counts its token requests per scope. */
export function countingClient(
  config: AgentConfig,
  options: AgentClientOptions = {},
): { client: AgentClient; tokenRequests: Record<TokenScope, number> } {
  const tokenRequests: Record<TokenScope, number> = { 'svc:api': 0, 'mcp:call': 0 };
  const client = new AgentClient(config, {
    ...options,
    onTokenRequested: (scope) => tokenRequests[scope]++,
  });
  return { client, tokenRequests };
}

export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}
