import { AgentConfig } from '../config/agent-config';
import { ConfigurationError } from '../errors';
import { McpRelayClient, Tool } from '../mcp/mcp-relay-client';
import { McpServerInfo } from '../models/models';
import { namespacedToolName, toolNamespace } from '../models/tool-namespace';
import { AgentRuntime } from '../runtime/agent-runtime';

const MAX_TOOL_NAME = 64;

/** One MCP tool as a framework sees it: a namespaced name, its schema, and a call through the relay. */
export interface GovernedTool {
  name: string;
  description: string;
  inputSchema: Tool['inputSchema'];
  server: McpServerInfo;
  toolName: string;
  call(args: Record<string, unknown>): Promise<unknown>;
}

export interface GovernedToolCatalog {
  tools: GovernedTool[];
  close(): Promise<void>;
}

function frameworkName(server: McpServerInfo, tool: string): string {
  const safeTool = tool.replace(/[^A-Za-z0-9_-]/g, '_');
  return namespacedToolName(toolNamespace(server.name, server.mcpServerId), safeTool).slice(
    0,
    MAX_TOOL_NAME,
  );
}

/**
 * Every tool of every MCP server the agent is subscribed to (its directory), each named
 * `mcp_<server>_<id8>__<tool>` and called through the relay with the agent's token, so the
 * platform's policies, grants and audit apply to every call the framework makes.
 */
export async function governedToolCatalog(runtime: AgentRuntime): Promise<GovernedToolCatalog> {
  const clients: McpRelayClient[] = [];
  const tools: GovernedTool[] = [];
  for (const server of runtime.directory.mcpServers) {
    const client = runtime.mcp(server.mcpServerId, {
      clientInfo: { name: runtime.client.agentId, version: '0.1.0' },
    });
    clients.push(client);
    for (const tool of await client.listTools()) {
      tools.push({
        name: frameworkName(server, tool.name),
        description: tool.description ?? `${tool.name} (${server.name})`,
        inputSchema: tool.inputSchema,
        server,
        toolName: tool.name,
        call: (args) => client.callTool(tool.name, args),
      });
    }
  }
  return {
    tools,
    close: async () => {
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}

export interface GovernedConnection {
  runtime: AgentRuntime;
  catalog: GovernedToolCatalog;
  /** `{base_url}/relay/llm/{gatewayId}/v1`: the OpenAI-compatible base of the gateway (D20, D39). */
  llmBaseUrl: string;
  // Carries the agent's `mcp:call` token (D8: `/relay/llm` takes the relay audience only) and the
  // request behaviour (D37: no provider key here).
  fetch: typeof fetch;
}

/**
 * Starts the runtime (directory read, refreshed every 60 s), lists the subscribed MCP servers'
 * tools and picks the gateway the model goes through: the one named, else the first subscribed;
 * none is a ConfigurationError.
 */
export async function connectGoverned(
  config: AgentConfig,
  gatewayId?: string,
): Promise<GovernedConnection> {
  const runtime = new AgentRuntime({ config });
  await runtime.start();
  const gateway = gatewayId ?? runtime.directory.llmGateways[0]?.llmGatewayId;
  if (!gateway) {
    runtime.stop();
    throw new ConfigurationError(
      'the agent is subscribed to no LLM gateway (AGENT_TO_LLM_GATEWAY)',
      'LLM_GATEWAY_ID',
    );
  }
  const llm = runtime.client.llm(gateway);
  return {
    runtime,
    catalog: await governedToolCatalog(runtime),
    llmBaseUrl: llm.baseUrl,
    fetch: llm.fetch,
  };
}

export const NO_TOOLS: GovernedToolCatalog = { tools: [], close: async () => undefined };
