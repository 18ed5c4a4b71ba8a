import { startOpenAiTestProvider } from '@agp/testing';
import { Client } from 'pg';

import { ChatStreamClient } from './llm/chat-load';
import { Measurement, closedLoop, table } from './measure';
import { api, arrangeTenant, startBenchPlatform } from './mcp/bench-platform';
import { BENCH_POLICIES } from './mcp/bench-policies';
import { fixedRate } from './mcp/mcp-load';
import { ServiceProcess, cpuSecondsOf } from './mcp/platform-processes';

const RATE = Number(process.env.BENCH_RATE ?? 20);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 10);
const LOOP_SECONDS = Number(process.env.BENCH_LOOP_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
/** The provider's pause between streamed chunks (a model emitting tokens); 0: back to back. */
const CHUNK_DELAY_MS = Number(process.env.BENCH_CHUNK_DELAY_MS ?? 0);

/** 48 words, about 260 characters: a short answer of a chat model. */
const ANSWER =
  'The quarterly numbers for the board show revenue up eight percent against the plan, with ' +
  'costs flat and the new region ahead of its targets. Churn fell for the third quarter in a ' +
  'row, and the pipeline for next quarter is the strongest we have seen since the launch of ' +
  'the platform last year.';

/** Per call, from the trail: hops, windows, the relay's own first-token time and policy time. */
async function whereTheTimeGoes(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const hops = await client.query(
      `SELECT count(*)::int AS hops, avg((details->>'latencyMs')::float) AS decide_ms
         FROM audit.events WHERE event_type = 'COMMUNICATION_AUDIT'`,
    );
    const calls = await client.query(
      `SELECT count(*)::int AS calls, avg((details->>'windows')::float) AS windows,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY (details->>'firstTokenMs')::float) AS first_ms,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY (details->>'latencyMs')::float) AS whole_ms
         FROM audit.events WHERE event_type = 'LLM_GATEWAY_CALL'`,
    );
    const h = hops.rows[0] as { hops: number; decide_ms: number | null };
    const c = calls.rows[0] as {
      calls: number;
      windows: number | null;
      first_ms: number | null;
      whole_ms: number | null;
    };
    return [
      `LLM_GATEWAY_CALL events: ${c.calls}; judged windows per streamed completion: mean ${(c.windows ?? 0).toFixed(2)}`,
      `inside the relay, from the request to the first text written (p50): ${(c.first_ms ?? 0).toFixed(3)} ms; to the end of the stream (p50): ${(c.whole_ms ?? 0).toFixed(3)} ms`,
      `hops in the trail: ${h.hops}; policy decision (5 bindings) per hop: mean ${(h.decide_ms ?? 0).toFixed(3)} ms`,
    ];
  } finally {
    await client.end();
  }
}

function cpuByProcess(services: ServiceProcess[]): Record<string, number> {
  const cpu: Record<string, number> = { 'bench (load + provider)': cpuSecondsOf(process.pid) };
  for (const service of services) {
    cpu[service.name] = cpuSecondsOf(service.child.pid!);
  }
  return cpu;
}

async function main(): Promise<void> {
  const provider = await startOpenAiTestProvider({
    reply: () => ANSWER,
    chunkDelayMs: CHUNK_DELAY_MS,
  });
  const bench = await startBenchPlatform('llm');
  try {
    const tenant = await arrangeTenant(bench, 'http://127.0.0.1:1/mcp', BENCH_POLICIES);
    const gateway = bench.gatewayUrl;
    const registered = await api<{ id: string }>(
      gateway,
      tenant.adminToken,
      'POST',
      '/relay/v1/llm-providers',
      {
        name: 'bench-provider',
        baseUrl: provider.baseUrl,
        apiKey: 'sk-bench',
      },
    );
    const llmGateway = await api<{ id: string }>(
      gateway,
      tenant.adminToken,
      'POST',
      '/relay/v1/llm-gateways',
      {
        name: 'bench-gateway',
        providers: [registered.id],
      },
    );
    await api(gateway, tenant.adminToken, 'POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_LLM_GATEWAY',
      sourceId: tenant.agentId,
      targetId: llmGateway.id,
    });
    const path = `/relay/llm/${llmGateway.id}/v1`;
    const direct = new ChatStreamClient(provider.baseUrl, 'sk-bench');
    const relayOnly = new ChatStreamClient(`${bench.relayUrl}${path}`, tenant.mcpToken);
    const platform = new ChatStreamClient(`${gateway}${path}`, tenant.mcpToken);
    const question = 'summarise the quarterly numbers for the board';
    for (const client of [direct, relayOnly, platform]) {
      for (let i = 0; i < 200; i += 1) {
        await client.stream(question);
      }
    }

    const rows: Measurement[] = [];
    const firstToken = (client: ChatStreamClient) => () => client.stream(question);
    rows.push(
      await fixedRate(
        `direct to the provider, ${RATE}/s (first token)`,
        RATE,
        RATE_SECONDS,
        firstToken(direct),
      ),
    );
    rows.push(
      await fixedRate(
        `relay only (no gateway), ${RATE}/s (first token)`,
        RATE,
        RATE_SECONDS,
        firstToken(relayOnly),
      ),
    );
    const cpuBefore = cpuByProcess(bench.services);
    rows.push(
      await fixedRate(
        `gateway + relay, ${RATE}/s (first token)`,
        RATE,
        RATE_SECONDS,
        firstToken(platform),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const cpuAfter = cpuByProcess(bench.services);
    const whole = (client: ChatStreamClient) => () => client.complete(question);
    rows.push(
      await closedLoop(
        `direct, closed loop ×${CONCURRENCY} (whole stream)`,
        CONCURRENCY,
        LOOP_SECONDS,
        whole(direct),
      ),
    );
    rows.push(
      await closedLoop(
        `gateway + relay, closed loop ×${CONCURRENCY} (whole stream)`,
        CONCURRENCY,
        LOOP_SECONDS,
        whole(platform),
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
      `\nLLM streamed chat completion (${ANSWER.split(' ').length} words, chunk delay ${CHUNK_DELAY_MS} ms): 5 bindings on the request and on each window, audit durable before each goes on\n`,
    );
    console.log(table(rows));
    console.log(
      `\nadded to the first token by gateway + relay at ${RATE}/s: p50 ${((g.p50Us - d.p50Us) / 1000).toFixed(3)} ms, p99 ${((g.p99Us - d.p99Us) / 1000).toFixed(3)} ms (goal: p50 ≤ 1 ms)`,
    );
    console.log(
      `of which the gateway hop: p50 ${((g.p50Us - r.p50Us) / 1000).toFixed(3)} ms; the relay: p50 ${((r.p50Us - d.p50Us) / 1000).toFixed(3)} ms`,
    );
    console.log(
      `capacity: ${gc.perSecond}/s through the platform vs ${dc.perSecond}/s direct = ${(gc.perSecond / dc.perSecond).toFixed(2)} × direct (goal ≥ 0.4)`,
    );
    for (const line of await whereTheTimeGoes(bench.database.url)) {
      console.log(line);
    }
    const calls = RATE * RATE_SECONDS;
    const perCall = Object.keys(cpuAfter).map(
      (name) => `${name} ${Math.round(((cpuAfter[name] - cpuBefore[name]) / calls) * 1e6)} µs`,
    );
    console.log(
      `CPU per completion through the platform (incl. the audit trail's work): ${perCall.join(', ')}`,
    );
    for (const client of [direct, relayOnly, platform]) {
      await client.close();
    }
  } finally {
    await bench.stop();
    await provider.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
