import { freePort, startMcpTestServer } from '@agp/testing';

import { startComparedProcesses } from './floor/compared-processes';
import {
  BenchTarget,
  arrangeSecondServer,
  arrangeTenant,
  arrangeVirtualServer,
} from './mcp/bench-platform';
import { BENCH_POLICIES } from './mcp/bench-policies';
import { McpSessionClient, McpStatelessClient, PrefixedMcpClient } from './mcp/mcp-load';
import { startModernToolsServer } from './mcp/modern-server';
import { startService, stopService } from './mcp/platform-processes';
import { compareThroughRelay, comparisonSettings, policyTimePerHop } from './relay-comparison';

async function main(): Promise<void> {
  const tools = await startMcpTestServer({ jsonResponse: true, record: false });
  const modernTools = await startModernToolsServer();
  const processes = await startComparedProcesses('mcp', tools.url);
  const { bench, oneProcess, bareHop } = processes;
  // traffic.md T93: a relay replica with its own spans on (every trace sampled), same database.
  const spansRelay = await startService('relay', await freePort(), {
    ...bench.env,
    RELAY_SPANS_SAMPLE_RATIO: '1',
  });
  try {
    const arrange = (target: BenchTarget) => arrangeTenant(target, tools.url, BENCH_POLICIES);
    const at = (
      origin: string,
      { serverId, mcpToken }: Awaited<ReturnType<typeof arrange>>,
      isTraced = false,
    ) => new McpSessionClient(new URL(`${origin}/relay/mcp/${serverId}`), mcpToken, 64, isTraced);
    const services = await arrange(bench);
    const virtual = await arrangeVirtualServer(bench, services, 'tools');
    const modern = await arrangeSecondServer(bench, services, modernTools.url, 'bench-modern');
    const rows = [
      {
        kind: 'direct' as const,
        label: 'direct to the MCP server',
        client: new McpSessionClient(new URL(tools.url)),
      },
      {
        kind: 'floor' as const,
        label: 'bare fastify + undici hop',
        client: new McpSessionClient(new URL(`${bareHop.url}${new URL(tools.url).pathname}`)),
      },
      {
        kind: 'relay' as const,
        label: 'relay only (no gateway)',
        client: at(bench.relayUrl, services),
      },
      // T93: spans off and on, twice in turn, so the machine's drift shows beside the difference.
      ...[1, 2].flatMap((round) => [
        {
          kind: 'relay' as const,
          label: `relay only, traceparent sent, spans off (${round})`,
          client: at(bench.relayUrl, services, true),
        },
        {
          kind: 'relay' as const,
          label: `relay only, traceparent sent, spans on (${round})`,
          client: at(spansRelay.url, services, true),
        },
      ]),
      {
        kind: 'services' as const,
        label: 'gateway + relay',
        client: at(bench.gatewayUrl, services),
      },
      {
        kind: 'virtual' as const,
        label: 'gateway + relay, virtual server (D52)',
        client: new PrefixedMcpClient(
          new URL(`${bench.gatewayUrl}/relay/mcp/${virtual.serverId}`),
          virtual.mcpToken,
          'tools',
        ),
      },
      // Issue 35: the same call as a 2026-07-28 stateless request, to a server of that revision.
      {
        kind: 'modernDirect' as const,
        label: 'direct to a 2026-07-28 server (stateless)',
        client: new McpStatelessClient(new URL(modernTools.url)),
      },
      {
        kind: 'modern' as const,
        label: 'gateway + relay, 2026-07-28 stateless hop',
        client: new McpStatelessClient(
          new URL(`${bench.gatewayUrl}/relay/mcp/${modern.serverId}`),
          modern.mcpToken,
        ),
      },
      {
        kind: 'oneProcess' as const,
        label: 'one process (npm start, PGlite)',
        client: at(oneProcess.gatewayUrl, await arrange(oneProcess)),
      },
    ];
    for (const row of rows) {
      await row.client.initialize();
    }
    await compareThroughRelay(
      {
        bench,
        oneProcess,
        others: [bareHop],
        rows,
        rateCall: (client) => client.callTool('echo', { text: 'quarterly numbers for the board' }),
        warmup: 200,
        title: 'MCP tools/call: 5 bindings evaluated both ways, audit durable before the answer',
        benchProcess: 'bench (load + MCP server)',
        whereTheTimeGoes: (trail) =>
          policyTimePerHop(trail, 'hops', `event_type = 'COMMUNICATION_AUDIT'`),
      },
      comparisonSettings(100),
    );
  } finally {
    await stopService(spansRelay);
    await processes.stop();
    await tools.close();
    await modernTools.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
