import { freePort, startOpenAiTestProvider } from '@agp/testing';
import { Client } from 'pg';

import { startComparedProcesses } from './floor/compared-processes';
import { ChatStreamClient } from './llm/chat-load';
import { portkeyHeaders, startPortkey } from './llm/portkey';
import { BenchTarget, api, arrangeTenant, registerAgent, relayToken } from './mcp/bench-platform';
import { BENCH_POLICIES } from './mcp/bench-policies';
import { stopService } from './mcp/platform-processes';
import { ComparedRow, compareThroughRelay, comparisonSettings } from './relay-comparison';

/** The provider's pause between streamed chunks (a model emitting tokens); 0: back to back. */
const CHUNK_DELAY_MS = Number(process.env.BENCH_CHUNK_DELAY_MS ?? 0);

/** 48 words, about 260 characters: a short answer of a chat model. */
const ANSWER =
  'The quarterly numbers for the board show revenue up eight percent against the plan, with ' +
  'costs flat and the new region ahead of its targets. Churn fell for the third quarter in a ' +
  'row, and the pipeline for next quarter is the strongest we have seen since the launch of ' +
  'the platform last year.';

/** Per call, from the trail: hops, windows, the relay's own first-token time and policy time. */
async function whereTheTimeGoes(trail: Client): Promise<string[]> {
  const hops = await trail.query(
    `SELECT count(*)::int AS hops, avg((details->>'latencyMs')::float) AS decide_ms
       FROM audit.events WHERE event_type = 'COMMUNICATION_AUDIT'`,
  );
  const calls = await trail.query(
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
}

/** An LLM gateway over the provider at `baseUrl`, an agent subscribed to it: its path and token. */
async function arrangeLlm(
  target: BenchTarget,
  baseUrl: string,
): Promise<{ path: string; token: string; adminToken: string }> {
  const tenant = await arrangeTenant(target, 'http://127.0.0.1:1/mcp', BENCH_POLICIES);
  const agent = { id: tenant.agentId, token: tenant.mcpToken };
  const arranged = await llmGatewayFor(target, tenant.adminToken, agent, baseUrl, 'bench');
  return { ...arranged, adminToken: tenant.adminToken };
}

/**
 * spend.md SP8: a second agent and gateway of the same tenant, the model priced, and a budget of
 * each scope but TENANT that its calls count under (AGENT, LLM_GATEWAY, SUBSCRIPTION; the first
 * row's calls count under none), limits far above the run: each call reserves and settles
 * without a refusal or a warning, the per-call cost of budgets alone.
 */
async function arrangeBudgetedLlm(
  target: BenchTarget,
  adminToken: string,
  baseUrl: string,
): Promise<{ path: string; token: string }> {
  const gateway = target.gatewayUrl;
  const registered = await registerAgent(gateway, adminToken, 'bench-budgeted-agent');
  const agent = { id: registered.id, token: await relayToken(gateway, registered) };
  const arranged = await llmGatewayFor(target, adminToken, agent, baseUrl, 'bench-budgeted');
  const admin = (path: string, body: Record<string, unknown>): Promise<unknown> =>
    api(gateway, adminToken, 'POST', path, body);
  await admin('/relay/v1/model-prices', {
    model: 'bench-model',
    currency: 'USD',
    inputPerMillion: '2.5',
    outputPerMillion: '10',
  });
  const huge = { unit: 'USD', softLimit: '900000000', hardLimit: '1000000000' };
  await admin('/relay/v1/budgets', { scope: 'AGENT', targetId: agent.id, period: 'DAY', ...huge });
  await admin('/relay/v1/budgets', {
    scope: 'LLM_GATEWAY',
    targetId: arranged.llmGatewayId,
    period: 'ROLLING_24H',
    ...huge,
  });
  await admin('/relay/v1/budgets', {
    scope: 'SUBSCRIPTION',
    targetId: arranged.subscriptionId,
    period: 'MONTH',
    unit: 'TOKENS',
    hardLimit: '1000000000000',
  });
  return arranged;
}

async function llmGatewayFor(
  target: BenchTarget,
  adminToken: string,
  agent: { id: string; token: string },
  baseUrl: string,
  name: string,
): Promise<{ path: string; token: string; llmGatewayId: string; subscriptionId: string }> {
  const gateway = target.gatewayUrl;
  const registered = await api<{ id: string }>(
    gateway,
    adminToken,
    'POST',
    '/relay/v1/llm-providers',
    { name: `${name}-provider`, baseUrl, apiKey: 'sk-bench' },
  );
  const llmGateway = await api<{ id: string }>(
    gateway,
    adminToken,
    'POST',
    '/relay/v1/llm-gateways',
    { name: `${name}-gateway`, providers: [registered.id] },
  );
  const subscription = await api<{ id: string }>(
    gateway,
    adminToken,
    'POST',
    '/relay/v1/subscriptions',
    { kind: 'AGENT_TO_LLM_GATEWAY', sourceId: agent.id, targetId: llmGateway.id },
  );
  return {
    path: `/relay/llm/${llmGateway.id}/v1`,
    token: agent.token,
    llmGatewayId: llmGateway.id,
    subscriptionId: subscription.id,
  };
}

/** Which completions: `streamed`, `plain` or both (default), one comparison each. */
const MODES = (process.env.BENCH_LLM_MODES ?? 'streamed,plain').split(',');

async function main(): Promise<void> {
  const provider = await startOpenAiTestProvider({
    reply: () => ANSWER,
    chunkDelayMs: CHUNK_DELAY_MS,
  });
  const processes = await startComparedProcesses('llm', provider.baseUrl);
  const { bench, oneProcess, bareHop } = processes;
  const portkey = await startPortkey(await freePort());
  try {
    const services = await arrangeLlm(bench, provider.baseUrl);
    const budgeted = await arrangeBudgetedLlm(bench, services.adminToken, provider.baseUrl);
    const embedded = await arrangeLlm(oneProcess, provider.baseUrl);
    const rows = (): ComparedRow<ChatStreamClient>[] => [
      {
        kind: 'direct',
        label: 'direct to the provider',
        client: new ChatStreamClient(provider.baseUrl, 'sk-bench'),
      },
      {
        kind: 'floor',
        label: 'bare fastify + undici hop',
        client: new ChatStreamClient(
          `${bareHop.url}${new URL(provider.baseUrl).pathname}`,
          'sk-bench',
        ),
      },
      {
        kind: 'relay',
        label: 'relay only (no gateway)',
        client: new ChatStreamClient(`${bench.relayUrl}${services.path}`, services.token),
      },
      {
        kind: 'services',
        label: 'gateway + relay',
        client: new ChatStreamClient(`${bench.gatewayUrl}${services.path}`, services.token),
      },
      {
        // spend.md SP8: the same, for a tenant whose calls count under four budgets.
        kind: 'services',
        label: 'gateway + relay, 3 budgets (SP8)',
        client: new ChatStreamClient(`${bench.gatewayUrl}${budgeted.path}`, budgeted.token),
      },
      {
        kind: 'oneProcess',
        label: 'one process (npm start, PGlite)',
        client: new ChatStreamClient(`${oneProcess.gatewayUrl}${embedded.path}`, embedded.token),
      },
      {
        kind: 'peer',
        label: 'Portkey gateway (OSS, Node)',
        client: new ChatStreamClient(
          `${portkey.url}/v1`,
          'sk-bench',
          64,
          portkeyHeaders(provider.baseUrl),
        ),
      },
    ];
    const question = 'summarise the quarterly numbers for the board';
    const common = {
      bench,
      oneProcess,
      others: [bareHop, portkey],
      warmup: 100,
      benchProcess: 'bench (load + provider)',
      perWhat: 'completion',
    };
    if (MODES.includes('streamed')) {
      await compareThroughRelay(
        {
          ...common,
          // Portkey 1.15 answers every streamed completion 500 on node 20 ("TypeError: immutable"
          // in its updateHeaders, appending to a fetch Response's headers): plain rows only.
          rows: rows().filter((row) => row.kind !== 'peer'),
          rateCall: (client) => client.stream(question),
          loopCall: (client) => client.complete(question),
          title: `LLM streamed chat completion (${ANSWER.split(' ').length} words, chunk delay ${CHUNK_DELAY_MS} ms): 5 bindings on the request and on each window, audit durable before each goes on`,
          rateSuffix: ' (first token)',
          loopSuffix: ' (whole stream)',
          whereTheTimeGoes,
        },
        comparisonSettings(20),
      );
    }
    if (MODES.includes('plain')) {
      await compareThroughRelay(
        {
          ...common,
          rows: rows(),
          rateCall: (client) => client.plain(question),
          title: `LLM chat completion, not streamed (${ANSWER.split(' ').length} words): 5 bindings on the request and on the answer, audit durable before each goes on`,
        },
        comparisonSettings(20),
      );
    }
  } finally {
    await stopService(portkey);
    await processes.stop();
    await provider.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
