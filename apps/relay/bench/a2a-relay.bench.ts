import { startA2aTestAgent } from '@agp/testing';
import { Client } from 'pg';

import { A2aSendClient } from './a2a/a2a-load';
import { Measurement, closedLoop, table } from './measure';
import {
  api,
  arrangeAdmin,
  bindAtTenant,
  registerAgent,
  relayToken,
  startBenchPlatform,
} from './mcp/bench-platform';
import { BENCH_POLICIES } from './mcp/bench-policies';
import { fixedRate } from './mcp/mcp-load';
import { ServiceProcess, cpuSecondsOf } from './mcp/platform-processes';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 10);
const LOOP_SECONDS = Number(process.env.BENCH_LOOP_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const TEXT = 'quarterly numbers for the board';

/** Policy time per A2A hop, from the hops' own audit events (once the trail has them all). */
async function whereTheTimeGoes(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const decided = await client.query(
      `SELECT count(*)::int AS hops, avg((details->>'latencyMs')::float) AS decide_ms,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY (details->>'latencyMs')::float) AS p99_ms
         FROM audit.events
        WHERE event_type = 'COMMUNICATION_AUDIT' AND details->>'a2a' = 'true'`,
    );
    const row = decided.rows[0] as {
      hops: number;
      decide_ms: number | null;
      p99_ms: number | null;
    };
    return `A2A hops in the audit trail: ${row.hops}; policy decision (5 bindings) per hop: mean ${(row.decide_ms ?? 0).toFixed(3)} ms, p99 ${(row.p99_ms ?? 0).toFixed(3)} ms`;
  } finally {
    await client.end();
  }
}

function cpuByProcess(services: ServiceProcess[]): Record<string, number> {
  const cpu: Record<string, number> = { 'bench (load + A2A agent)': cpuSecondsOf(process.pid) };
  for (const service of services) {
    cpu[service.name] = cpuSecondsOf(service.child.pid!);
  }
  return cpu;
}

/**
 * Issue 13: A2A `message/send` to an agent built on the official SDK's server classes, through
 * the gateway and the relay (caller subscribed, five policies bound at TENANT level, both hops
 * decided and audited durably before the answer) beside the same call straight to the agent.
 */
async function main(): Promise<void> {
  const agent = await startA2aTestAgent({ record: false });
  const bench = await startBenchPlatform('a2a');
  const services = bench.services;
  try {
    const gateway = bench.gatewayUrl;
    const adminToken = await arrangeAdmin(bench);
    const caller = await registerAgent(gateway, adminToken, 'bench-caller');
    const target = await registerAgent(gateway, adminToken, 'bench-target');
    await api(gateway, adminToken, 'PATCH', `/relay/v1/agents/${target.id}`, {
      agentCardUrl: agent.cardUrl,
    });
    await api(gateway, adminToken, 'POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_AGENT',
      sourceId: caller.id,
      targetId: target.id,
    });
    await bindAtTenant(gateway, adminToken, BENCH_POLICIES);
    const token = await relayToken(gateway, caller);

    const direct = new A2aSendClient(new URL(agent.url));
    const relayOnly = new A2aSendClient(new URL(`${bench.relayUrl}/relay/a2a/${target.id}`), token);
    const platform = new A2aSendClient(new URL(`${gateway}/relay/a2a/${target.id}`), token);
    const send = (client: A2aSendClient) => () => client.send(TEXT);
    for (const client of [direct, relayOnly, platform]) {
      for (let i = 0; i < 300; i += 1) {
        await send(client)();
      }
    }

    const rows: Measurement[] = [];
    rows.push(await fixedRate(`direct to the agent, ${RATE}/s`, RATE, RATE_SECONDS, send(direct)));
    rows.push(
      await fixedRate(`relay only (no gateway), ${RATE}/s`, RATE, RATE_SECONDS, send(relayOnly)),
    );
    const cpuBefore = cpuByProcess(services);
    rows.push(await fixedRate(`gateway + relay, ${RATE}/s`, RATE, RATE_SECONDS, send(platform)));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const cpuAfter = cpuByProcess(services);
    rows.push(
      await closedLoop(
        `direct, closed loop ×${CONCURRENCY}`,
        CONCURRENCY,
        LOOP_SECONDS,
        send(direct),
      ),
    );
    rows.push(
      await closedLoop(
        `gateway + relay, closed loop ×${CONCURRENCY}`,
        CONCURRENCY,
        LOOP_SECONDS,
        send(platform),
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
      `\nA2A message/send (SDK server agent): 5 bindings evaluated both ways, audit durable before the answer\n`,
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
    await agent.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
