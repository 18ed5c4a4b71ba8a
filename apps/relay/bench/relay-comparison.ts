import { Client } from 'pg';

import { Measurement, closedLoop, table } from './measure';
import { BenchPlatform } from './mcp/bench-platform';
import { fixedRate } from './mcp/mcp-load';
import { cpuSecondsOf } from './mcp/platform-processes';

/** One way of calling the upstream: straight, through the relay alone, through gateway + relay. */
export interface ComparedClient {
  close(): Promise<void>;
}

export interface RelayComparison<C extends ComparedClient> {
  bench: BenchPlatform;
  clients: { direct: C; relayOnly: C; platform: C };
  /** The call measured at a fixed rate (and warmed up with); it may resolve with its own end time. */
  rateCall: (client: C) => Promise<void | bigint>;
  /** The call of the closed loops, over when its answer is; `rateCall` by default. */
  loopCall?: (client: C) => Promise<void>;
  /** Calls of each client before anything is measured. */
  warmup: number;
  /** The heading above the table. */
  title: string;
  /** `the MCP server`: what "direct to …" reaches. */
  upstream: string;
  /** What each kind of row measures, after its label (` (first token)`); nothing by default. */
  rateSuffix?: string;
  loopSuffix?: string;
  /** The start of the line with the added p50 and p99; `added by gateway + relay` by default. */
  addedBy?: string;
  /** `bench (load + MCP server)`: the name of this process in the CPU line. */
  benchProcess: string;
  /** What the CPU is counted per; `call` by default. */
  perWhat?: string;
  /** Lines on where the time goes, read from the audit trail once it has every event. */
  whereTheTimeGoes: (trail: Client) => Promise<string[]>;
}

/** BENCH_* settings of a comparison; the fixed rate's default is the bench's own. */
export function comparisonSettings(defaultRate: number): {
  rate: number;
  rateSeconds: number;
  loopSeconds: number;
  concurrency: number;
} {
  return {
    rate: Number(process.env.BENCH_RATE ?? defaultRate),
    rateSeconds: Number(process.env.BENCH_RATE_SECONDS ?? 10),
    loopSeconds: Number(process.env.BENCH_LOOP_SECONDS ?? 8),
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? 16),
  };
}

/**
 * The relay benches' one driver: the same call direct, through the relay alone and through the
 * gateway and the relay at a fixed rate, then direct and through the platform in closed loops;
 * prints the table, the added p50/p99 against the goals, the capacity, where the time goes and the
 * CPU per call of each process.
 */
export async function compareThroughRelay<C extends ComparedClient>(
  comparison: RelayComparison<C>,
  settings: ReturnType<typeof comparisonSettings>,
): Promise<void> {
  const { rate, rateSeconds, loopSeconds, concurrency } = settings;
  const { direct, relayOnly, platform } = comparison.clients;
  const rateCall = (client: C) => () => comparison.rateCall(client);
  // A closed loop ignores what a call resolves with, so `rateCall` serves as it is.
  const loopCall = (client: C) => () =>
    comparison.loopCall
      ? comparison.loopCall(client)
      : (comparison.rateCall(client) as Promise<void>);
  const atRate = comparison.rateSuffix ?? '';
  const inLoop = comparison.loopSuffix ?? '';
  for (const client of [direct, relayOnly, platform]) {
    for (let i = 0; i < comparison.warmup; i += 1) {
      await comparison.rateCall(client);
    }
  }

  const rows: Measurement[] = [];
  rows.push(
    await fixedRate(
      `direct to ${comparison.upstream}, ${rate}/s${atRate}`,
      rate,
      rateSeconds,
      rateCall(direct),
    ),
  );
  rows.push(
    await fixedRate(
      `relay only (no gateway), ${rate}/s${atRate}`,
      rate,
      rateSeconds,
      rateCall(relayOnly),
    ),
  );
  const cpuBefore = cpuByProcess(comparison);
  rows.push(
    await fixedRate(`gateway + relay, ${rate}/s${atRate}`, rate, rateSeconds, rateCall(platform)),
  );
  // The audit trail finishes what the calls sent it before the CPU is read again.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const cpuAfter = cpuByProcess(comparison);
  rows.push(
    await closedLoop(
      `direct, closed loop ×${concurrency}${inLoop}`,
      concurrency,
      loopSeconds,
      loopCall(direct),
    ),
  );
  rows.push(
    await closedLoop(
      `gateway + relay, closed loop ×${concurrency}${inLoop}`,
      concurrency,
      loopSeconds,
      loopCall(platform),
    ),
  );
  const [d, r, g, dc, gc] = rows as [
    Measurement,
    Measurement,
    Measurement,
    Measurement,
    Measurement,
  ];

  console.log(`\n${comparison.title}\n`);
  console.log(table(rows));
  console.log(
    `\n${comparison.addedBy ?? 'added by gateway + relay'} at ${rate}/s: p50 ${((g.p50Us - d.p50Us) / 1000).toFixed(3)} ms, p99 ${((g.p99Us - d.p99Us) / 1000).toFixed(3)} ms (goal: p50 ≤ 1 ms)`,
  );
  console.log(
    `of which the gateway hop: p50 ${((g.p50Us - r.p50Us) / 1000).toFixed(3)} ms; the relay: p50 ${((r.p50Us - d.p50Us) / 1000).toFixed(3)} ms`,
  );
  console.log(
    `capacity: ${gc.perSecond}/s through the platform vs ${dc.perSecond}/s direct = ${(gc.perSecond / dc.perSecond).toFixed(2)} × direct (goal ≥ 0.4)`,
  );
  for (const line of await fromTheTrail(
    comparison.bench.database.url,
    comparison.whereTheTimeGoes,
  )) {
    console.log(line);
  }
  const calls = rate * rateSeconds;
  const perCall = Object.keys(cpuAfter).map(
    (name) => `${name} ${Math.round(((cpuAfter[name] - cpuBefore[name]) / calls) * 1e6)} µs`,
  );
  console.log(
    `CPU per ${comparison.perWhat ?? 'call'} through the platform (incl. the audit trail's work): ${perCall.join(', ')}`,
  );
  for (const client of [direct, relayOnly, platform]) {
    await client.close();
  }
}

/**
 * Mean and p99 policy time per hop of `where` (a condition on audit.events), from the hops' own
 * audit events: `<label> in the audit trail: n; policy decision (5 bindings) per hop: …`.
 */
export async function policyTimePerHop(
  trail: Client,
  label: string,
  where: string,
): Promise<string[]> {
  const decided = await trail.query(
    `SELECT count(*)::int AS hops, avg((details->>'latencyMs')::float) AS decide_ms,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY (details->>'latencyMs')::float) AS p99_ms
       FROM audit.events WHERE ${where}`,
  );
  const row = decided.rows[0] as { hops: number; decide_ms: number | null; p99_ms: number | null };
  return [
    `${label} in the audit trail: ${row.hops}; policy decision (5 bindings) per hop: mean ${(row.decide_ms ?? 0).toFixed(3)} ms, p99 ${(row.p99_ms ?? 0).toFixed(3)} ms`,
  ];
}

/** Reads the trail once it has had 3 s to take in every event of the run. */
async function fromTheTrail(
  databaseUrl: string,
  read: (trail: Client) => Promise<string[]>,
): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    return await read(client);
  } finally {
    await client.end();
  }
}

function cpuByProcess({
  bench,
  benchProcess,
}: Pick<RelayComparison<ComparedClient>, 'bench' | 'benchProcess'>): Record<string, number> {
  const cpu: Record<string, number> = { [benchProcess]: cpuSecondsOf(process.pid) };
  for (const service of bench.services) {
    cpu[service.name] = cpuSecondsOf(service.child.pid!);
  }
  return cpu;
}
