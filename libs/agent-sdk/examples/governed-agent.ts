// A governed agent, run from the repository as a newcomer would: 1.
import { randomUUID } from 'node:crypto';

import { AgentClient, toolNamespace } from '@agp/agent-sdk';

async function main(): Promise<void> {
  const agent = AgentClient.fromEnv(); // SVC_* variables; a missing one is named in the error
  const [server] = await agent.listMcpServers();
  if (!server) {
    throw new Error(`agent ${agent.agentId} is not subscribed to any MCP server`);
  }
  const correlationId = randomUUID(); // every message of this run shares one audit trace
  const mcp = agent.mcp(server.mcpServerId, { correlationId });
  console.log(`MCP server "${server.name}" (${server.mcpServerId}) through ${mcp.url}`);
  try {
    const tools = await mcp.listTools();
    console.log(
      `${toolNamespace(server.name, server.mcpServerId)}: ${tools.map((t) => t.name).join(', ')}`,
    );
    const tool = process.env.EXAMPLE_TOOL ?? tools[0]?.name;
    if (!tool) {
      throw new Error(
        `${server.name} offers this agent no tool: it lists none, or the subscription's tool grant names none of them`,
      );
    }
    const args = JSON.parse(process.env.EXAMPLE_ARGS ?? '{}') as Record<string, unknown>;
    const result = await mcp.callTool(tool, args);
    console.log(
      JSON.stringify({ tool, isError: result.isError ?? false, content: result.content }),
    );
    console.log(`trace: ${agent.config.baseUrl}/audit/v1/traces/${correlationId}`);
  } finally {
    await mcp.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
