import { startMcpTestServer } from '@agp/testing';

import { arrangeTenant, startBenchPlatform } from './mcp/bench-platform';
import { BENCH_POLICIES } from './mcp/bench-policies';
import { McpSessionClient } from './mcp/mcp-load';
import { compareThroughRelay, comparisonSettings, policyTimePerHop } from './relay-comparison';

async function main(): Promise<void> {
  const tools = await startMcpTestServer({ jsonResponse: true, record: false });
  const bench = await startBenchPlatform('mcp');
  try {
    const gatewayUrl = bench.gatewayUrl;
    const { serverId, mcpToken } = await arrangeTenant(bench, tools.url, BENCH_POLICIES);

    const direct = new McpSessionClient(new URL(tools.url));
    const relayOnly = new McpSessionClient(
      new URL(`${bench.relayUrl}/relay/mcp/${serverId}`),
      mcpToken,
    );
    const platform = new McpSessionClient(new URL(`${gatewayUrl}/relay/mcp/${serverId}`), mcpToken);
    for (const client of [direct, relayOnly, platform]) {
      await client.initialize();
    }
    const call = (client: McpSessionClient): Promise<void> =>
      client.callTool('echo', { text: 'quarterly numbers for the board' });
    await compareThroughRelay(
      {
        bench,
        clients: { direct, relayOnly, platform },
        rateCall: call,
        warmup: 300,
        title: 'MCP tools/call: 5 bindings evaluated both ways, audit durable before the answer',
        upstream: 'the MCP server',
        benchProcess: 'bench (load + MCP server)',
        whereTheTimeGoes: (trail) =>
          policyTimePerHop(trail, 'hops', `event_type = 'COMMUNICATION_AUDIT'`),
      },
      comparisonSettings(300),
    );
  } finally {
    await bench.stop();
    await tools.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
