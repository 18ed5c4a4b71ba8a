import 'reflect-metadata';

import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';

import { InProcessTransport, OwnerQueries } from '@agp/messaging';
import pino from 'pino';

import { Hop } from '../src/traffic/pipeline/hop.types';
import { CallTrace } from '../src/traffic/tracing/call-trace';
import { HopTracer } from '../src/traffic/tracing/hop-tracer';

/**
 * traffic.md T93: what the relay's own span adds to one hop, in the relay's process: the pipeline's
 * `tracer.start(hop)` and its `end` once the records are durable, the batch processor's work and
 * the tenant exporter's serializing included (its bus answered in-process). Spans off, the same
 * calls, in the same run, in turns. The MCP bench's rows measure the same through HTTP.
 */
const HOPS = Number(process.env.BENCH_SPAN_HOPS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_SPAN_ROUNDS ?? 10);

function hopOf(index: number): Hop {
  const agent = {
    type: 'AGENT',
    id: '6c1d3ab5-9e0f-4e8f-8d21-5f6f0f7f2a11',
    name: 'support',
  } as const;
  return {
    tenantId: '0b8ad0a8-7c0e-4bfb-9d4f-4b1e5a8b2c01',
    correlationId: `c-${index}`,
    protocol: 'MCP',
    direction: 'REQUEST',
    source: agent,
    sink: { type: 'MCP_SERVER', id: 's-1', name: 'crm' },
    agent,
    method: 'tools/call',
    tool: 'lookup_customer',
    message: { json: { jsonrpc: '2.0', id: index, method: 'tools/call' }, text: '' },
    details: { jsonRpcId: index, mcpSessionId: 'session-1' },
    trace: CallTrace.of({
      traceparent: `00-${'4bf92f3577b34da6a3ce929d0e0e4736'}-00f067aa0ba902b7-01`,
    }),
    captureContent: false,
  };
}

const DECISION = { action: 'LOG' as const, bindings: [] };

interface Round {
  wallUs: number;
  cpuUs: number;
}

/**
 * Per hop of one round: every hop started, decided, ended, and its span exported (the batch
 * flushed before the clock stops). CPU time as well as wall time: on a shared machine a process
 * waits for a core, which the wall clock counts and the CPU clock does not.
 */
async function round(tracer: HopTracer): Promise<Round> {
  const hops = Array.from({ length: HOPS }, (_, i) => hopOf(i));
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const hop of hops) {
    const span = tracer.start(hop);
    span?.end(DECISION, 'e-1', Promise.resolve());
  }
  // The ends run once `audited` resolves: a turn of the microtask queue.
  await new Promise((resolve) => setImmediate(resolve));
  await tracer.flush();
  const used = process.cpuUsage(cpu);
  return {
    wallUs: ((performance.now() - started) * 1_000) / HOPS,
    cpuUs: (used.user + used.system) / HOPS,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const logger = pino({ level: 'silent' });
  const queries = new OwnerQueries(new InProcessTransport(logger), logger);
  let exported = 0;
  await queries.answer('TELEMETRY_EXPORT', (request) => {
    exported += Buffer.from(request.spans, 'base64').length > 0 ? 1 : 0;
    return Promise.resolve({ accepted: 0, rejected: 0 });
  });
  const off = new HopTracer({ sampleRatio: 0 }, queries);
  const on = new HopTracer({ sampleRatio: 1 }, queries);
  const offRounds: Round[] = [];
  const onRounds: Round[] = [];
  await round(off);
  await round(on);
  for (let r = 0; r < ROUNDS; r += 1) {
    offRounds.push(await round(off));
    onRounds.push(await round(on));
  }
  await on.beforeApplicationShutdown();
  const of = (rounds: Round[], key: keyof Round) => median(rounds.map((r) => r[key]));
  console.log(`relay hop spans: ${ROUNDS} rounds of ${HOPS} hops each way, in turns`);
  console.log(`machine: ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}`);
  console.log('| row | wall µs per hop | CPU µs per hop |');
  console.log('| --- | ---: | ---: |');
  for (const [label, rounds] of [
    ['spans off (RELAY_SPANS_SAMPLE_RATIO=0)', offRounds],
    ["spans on (ratio 1, the agent's trace sampled)", onRounds],
  ] as const) {
    console.log(
      `| ${label} | ${of(rounds, 'wallUs').toFixed(2)} | ${of(rounds, 'cpuUs').toFixed(2)} |`,
    );
  }
  for (const key of ['wallUs', 'cpuUs'] as const) {
    const added = (of(onRounds, key) - of(offRounds, key)) / 1_000;
    console.log(
      `added per hop (${key === 'wallUs' ? 'wall' : 'CPU'}): ${added.toFixed(4)} ms (goal ≤ 0.05 ms)`,
    );
  }
  console.log(`export requests the bus answered: ${exported}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
