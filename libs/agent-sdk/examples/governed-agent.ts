// A governed agent, run from the repository as a newcomer would:
// 1. `npm start`: the platform on http://localhost:8080 (`PORT=8090 npm start` moves it).
// 2. As the administrator of ./.data/bootstrap.json, register an agent (its `id` and `clientSecret`
//    are answered once), an MCP server and the agent's subscription to it: the root README,
//    "Governing an agent's MCP traffic", steps 1 to 3 (a `tools` grant limits what is listed).
// 3. `export SVC_AGENT_ID=<id> SVC_CLIENT_SECRET=<clientSecret>`, and SVC_BASE_URL and SVC_TOKEN_URL
//    unless the platform is at their defaults, http://localhost:8080 and its token path.
// 4. `npm run example -w @agp/agent-sdk`: lists the tools of the first MCP server the agent is
//    subscribed to, calls EXAMPLE_TOOL (default: the first listed) with EXAMPLE_ARGS (JSON, default
//    `{}`) through the relay, prints the address of the run's audit trace and exits 0.
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
