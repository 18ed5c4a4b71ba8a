import { startMcpTestServer } from '@agp/testing';
import { Client } from 'pg';

import { Measurement, closedLoop, table } from './measure';
import { arrangeTenant, startBenchPlatform } from './mcp/bench-platform';
import { BENCH_POLICIES } from './mcp/bench-policies';
import { McpSessionClient, fixedRate } from './mcp/mcp-load';
import { ServiceProcess, cpuSecondsOf } from './mcp/platform-processes';

const RATE = Number(process.env.BENCH_RATE ?? 300);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 10);
const LOOP_SECONDS = Number(process.env.BENCH_LOOP_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

/** Mean policy time per hop, from the hops' own audit events (once the trail has them all). */
async function whereTheTimeGoes(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const decided = await client.query(
      `SELECT count(*)::int AS hops, avg((details->>'latencyMs')::float) AS decide_ms,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY (details->>'latencyMs')::float) AS p99_ms
         FROM audit.events WHERE event_type = 'COMMUNICATION_AUDIT'`,
    );
    const row = decided.rows[0] as {
      hops: number;
      decide_ms: number | null;
      p99_ms: number | null;
    };
    return `hops in the audit trail: ${row.hops}; policy decision (5 bindings) per hop: mean ${(row.decide_ms ?? 0).toFixed(3)} ms, p99 ${(row.p99_ms ?? 0).toFixed(3)} ms`;
  } finally {
    await client.end();
  }
}

function cpuByProcess(services: ServiceProcess[]): Record<string, number> {
  const cpu: Record<string, number> = { 'bench (load + MCP server)': cpuSecondsOf(process.pid) };
  for (const service of services) {
    cpu[service.name] = cpuSecondsOf(service.child.pid!);
  }
  return cpu;
}

async function main(): Promise<void> {
  const tools = await startMcpTestServer({ jsonResponse: true, record: false });
  const bench = await startBenchPlatform('mcp');
  const services = bench.services;
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
    const call = (client: McpSessionClient) => () =>
      client.callTool('echo', { text: 'quarterly numbers for the board' });
    for (const client of [direct, relayOnly, platform]) {
      for (let i = 0; i < 300; i += 1) {
        await call(client)();
      }
    }

    const rows: Measurement[] = [];
    rows.push(
      await fixedRate(`direct to the MCP server, ${RATE}/s`, RATE, RATE_SECONDS, call(direct)),
    );
    rows.push(
      await fixedRate(`relay only (no gateway), ${RATE}/s`, RATE, RATE_SECONDS, call(relayOnly)),
    );
    const cpuBefore = cpuByProcess(services);
    rows.push(await fixedRate(`gateway + relay, ${RATE}/s`, RATE, RATE_SECONDS, call(platform)));
    // The audit trail finishes what the calls sent it before the CPU is read again.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const cpuAfter = cpuByProcess(services);
    rows.push(
      await closedLoop(
        `direct, closed loop ×${CONCURRENCY}`,
        CONCURRENCY,
        LOOP_SECONDS,
        call(direct),
      ),
    );
    rows.push(
      await closedLoop(
        `gateway + relay, closed loop ×${CONCURRENCY}`,
        CONCURRENCY,
        LOOP_SECONDS,
        call(platform),
      ),
    );
    const [d, r, g, dc, gc] = rows as [
      Measurement,
      Measurement,
      Measurement,
      Measurement,
      Measurement,
    ];

    console.log(
      `\nMCP tools/call: 5 bindings evaluated both ways, audit durable before the answer\n`,
    );
    console.log(table(rows));
    console.log(
      `\nadded by gateway + relay at ${RATE}/s: p50 ${((g.p50Us - d.p50Us) / 1000).toFixed(3)} ms, p99 ${((g.p99Us - d.p99Us) / 1000).toFixed(3)} ms (goal: p50 ≤ 1 ms)`,
    );
    console.log(
      `of which the gateway hop: p50 ${((g.p50Us - r.p50Us) / 1000).toFixed(3)} ms; the relay: p50 ${((r.p50Us - d.p50Us) / 1000).toFixed(3)} ms`,
    );
    console.log(
      `capacity: ${gc.perSecond}/s through the platform vs ${dc.perSecond}/s direct = ${(gc.perSecond / dc.perSecond).toFixed(2)} × direct (goal ≥ 0.4)`,
    );
    console.log(await whereTheTimeGoes(bench.database.url));
    const calls = RATE * RATE_SECONDS;
    const perCall = Object.keys(cpuAfter).map(
      (name) => `${name} ${Math.round(((cpuAfter[name] - cpuBefore[name]) / calls) * 1e6)} µs`,
    );
    console.log(
      `CPU per call through the platform (incl. the audit trail's work): ${perCall.join(', ')}`,
    );
    for (const client of [direct, relayOnly, platform]) {
      await client.close();
    }
  } finally {
    await bench.stop();
    await tools.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
