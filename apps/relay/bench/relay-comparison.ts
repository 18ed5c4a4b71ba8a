import { mkdirSync } from 'node:fs';

import { Client } from 'pg';

import { profileOverInspector } from './floor/inspector-profile';
import { ProcessCpu } from './floor/process-cpu';
import { OneProcess } from './floor/one-process';
import { PostgresCpu } from './floor/postgres-cpu';
import { Measurement, closedLoop, table } from './measure';
import { BenchPlatform } from './mcp/bench-platform';
import { fixedRate } from './mcp/mcp-load';
import { ServiceProcess } from './mcp/platform-processes';

/** One way of calling the upstream: straight, through a bare hop, the relay alone, the platform… */
export interface ComparedClient {
  close(): Promise<void>;
}

/**
 * What a row measures. `direct` is the baseline of every other; `floor` a bare fastify + undici
 * hop; `services` gateway + relay (and the relay alone); `oneProcess` the `npm start` composition;
 * `peer` another product in front of the same upstream; `virtual` gateway + relay through a
 * virtual server (D52) over the same upstream; `modernDirect` and `modern` the same call as a
 * 2026-07-28 stateless request, straight to a server of that revision and through gateway + relay
 * (issue 35), the latter's added p50 taken against the former.
 */
export type RowKind =
  | 'direct'
  | 'floor'
  | 'relay'
  | 'services'
  | 'oneProcess'
  | 'peer'
  | 'virtual'
  | 'modernDirect'
  | 'modern';

export interface ComparedRow<C extends ComparedClient> {
  kind: RowKind;
  label: string;
  client: C;
}

export interface RelayComparison<C extends ComparedClient> {
  bench: BenchPlatform;
  oneProcess: OneProcess;
  /** Processes beside the services and the one process: the bare hop, a peer. */
  others: ServiceProcess[];
  rows: ComparedRow<C>[];
  /** The call measured at a fixed rate (and warmed up with); it may resolve with its own end time. */
  rateCall: (client: C) => Promise<void | bigint>;
  /** The call of the closed loops, over when its answer is; `rateCall` by default. */
  loopCall?: (client: C) => Promise<void>;
  /** Calls of each client before anything is measured. */
  warmup: number;
  /** The heading above the table. */
  title: string;
  /** What each kind of row measures, after its label (` (first token)`); nothing by default. */
  rateSuffix?: string;
  loopSuffix?: string;
  /** `bench (load + MCP server)`: the name of this process in the CPU lines. */
  benchProcess: string;
  /** What the CPU is counted per; `call` by default. */
  perWhat?: string;
  /** Lines on where the time goes, read from the audit trail once it has every event. */
  whereTheTimeGoes?: (trail: Client) => Promise<string[]>;
}

/** BENCH_* settings of a comparison; the fixed rate's default is the bench's own. */
export function comparisonSettings(defaultRate: number): {
  rate: number;
  rateSeconds: number;
  loopSeconds: number;
  concurrency: number;
} {
  // Short by default: the machine is shared (issue 31 asks for short runs).
  return {
    rate: Number(process.env.BENCH_RATE ?? defaultRate),
    rateSeconds: Number(process.env.BENCH_RATE_SECONDS ?? 6),
    loopSeconds: Number(process.env.BENCH_LOOP_SECONDS ?? 5),
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? 16),
  };
}

/** The goals of issue 31 (same run, same machine), by the kind of row they judge. */
const GOALS: Partial<Record<RowKind, { cpuMs: number; capacity: number; addedP50Ms: number }>> = {
  services: { cpuMs: 1.0, capacity: 0.3, addedP50Ms: 2.0 },
  oneProcess: { cpuMs: 2.0, capacity: 0.15, addedP50Ms: 3.0 },
};

/** The rows a closed loop also measures (capacity); the relay alone is only a latency split. */
const LOOPED: ReadonlySet<RowKind> = new Set(['direct', 'floor', 'services', 'oneProcess', 'peer']);

/**
 * The relay benches' one driver (issue 31): each row at a fixed rate (latency, and the CPU per
 * call of every process around it, PostgreSQL's backends included), then in closed loops
 * (capacity); prints the tables, the added p50, the capacity as a multiple of direct, the CPU per
 * call against the goals, and how soon the one process is idle again.
 */
export async function compareThroughRelay<C extends ComparedClient>(
  all: RelayComparison<C>,
  settings: ReturnType<typeof comparisonSettings>,
): Promise<void> {
  // BENCH_ROWS=oneProcess,floor: only those kinds beside direct (a profile of one of them).
  const only = process.env.BENCH_ROWS?.split(',');
  const comparison = {
    ...all,
    rows: all.rows.filter((r) => r.kind === 'direct' || !only || only.includes(r.kind)),
  };
  const { rate, rateSeconds, loopSeconds, concurrency } = settings;
  const postgres = await PostgresCpu.connect(comparison.bench.database.url);
  const cpu = new ProcessCpu(comparison.benchProcess, () => processesOf(comparison), postgres);
  const loopCall = (client: C) => () =>
    comparison.loopCall
      ? comparison.loopCall(client)
      : (comparison.rateCall(client) as Promise<void>);
  const progress = (what: string): void => {
    process.stderr.write(`${new Date().toISOString()} ${what}\n`);
  };
  for (const row of comparison.rows) {
    progress(`warm-up: ${row.label}`);
    for (let i = 0; i < comparison.warmup; i += 1) {
      await comparison.rateCall(row.client);
    }
  }
  // The warm-up's audit work is done before anything is measured.
  await ProcessCpu.secondsUntilIdle(comparison.oneProcess.service, 30);

  const atRate = new Map<ComparedRow<C>, Measurement>();
  const cpuLines: string[] = [];
  const cpuOf = new Map<ComparedRow<C>, Record<string, number>>();
  let idleAfter = NaN;
  for (const row of comparison.rows) {
    progress(`fixed rate: ${row.label}`);
    const before = await cpu.read();
    const profiles = profileSteadyPhase(row, processesOf(comparison), rateSeconds);
    atRate.set(
      row,
      await fixedRate(
        `${row.label}, ${rate}/s${comparison.rateSuffix ?? ''}`,
        rate,
        rateSeconds,
        () => comparison.rateCall(row.client),
      ),
    );
    await profiles;
    if (row.kind === 'oneProcess') {
      idleAfter = await ProcessCpu.secondsUntilIdle(comparison.oneProcess.service);
    } else if (['services', 'relay', 'virtual', 'modern'].includes(row.kind)) {
      // The audit trail finishes what the calls sent it before the CPU is read again.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    const after = await cpu.read();
    const perCall = ProcessCpu.perCall(before, after, rate * rateSeconds);
    cpuOf.set(row, perCall);
    cpuLines.push(
      `- ${row.label}: ${Object.entries(perCall)
        .map(([name, us]) => `${name} ${us} µs`)
        .join(', ')}`,
      ...ProcessCpu.statementsPerCall(before, after, rate * rateSeconds),
    );
  }
  const inLoop = new Map<ComparedRow<C>, Measurement>();
  // R39: the CPU per call of the saturated phase too, where each wake-up serves many calls.
  const loopCpuLines: string[] = [];
  for (const row of comparison.rows.filter((r) => LOOPED.has(r.kind))) {
    progress(`closed loop: ${row.label}`);
    const before = await cpu.read();
    const measured = await closedLoop(
      `${row.label}, closed loop ×${concurrency}${comparison.loopSuffix ?? ''}`,
      concurrency,
      loopSeconds,
      loopCall(row.client),
    );
    inLoop.set(row, measured);
    if (row.kind === 'oneProcess') {
      await ProcessCpu.secondsUntilIdle(comparison.oneProcess.service, 30);
    } else if (row.kind === 'services') {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    const perCall = ProcessCpu.perCall(before, await cpu.read(), measured.operations);
    loopCpuLines.push(
      `- ${row.label} (${measured.operations} calls): ${platformLine(comparison, row.kind, perCall)}` +
        Object.entries(perCall)
          .map(([name, us]) => `${name} ${us} µs`)
          .join(', '),
    );
  }

  const direct = comparison.rows.find((r) => r.kind === 'direct')!;
  const d = atRate.get(direct)!;
  const dc = inLoop.get(direct)!;
  console.log(`\n${comparison.title}\n`);
  console.log(table([...atRate.values(), ...inLoop.values()]));
  console.log(`\nadded p50 at ${rate}/s${comparison.rateSuffix ?? ''}, against direct:`);
  const modernDirect = comparison.rows.find((r) => r.kind === 'modernDirect');
  for (const row of comparison.rows.filter((r) => r !== direct)) {
    const m = atRate.get(row)!;
    const goal = GOALS[row.kind];
    // Issue 35: a 2026-07-28 hop against the same server reached directly.
    const base = row.kind === 'modern' && modernDirect ? atRate.get(modernDirect)! : d;
    const against = base === d ? '' : ` (against ${modernDirect!.label})`;
    console.log(
      `- ${row.label}: p50 ${((m.p50Us - base.p50Us) / 1000).toFixed(3)} ms, p99 ${((m.p99Us - base.p99Us) / 1000).toFixed(3)} ms${against}${goal ? ` (goal p50 ≤ ${goal.addedP50Ms} ms)` : ''}`,
    );
  }
  console.log(
    `\ncapacity (closed loop ×${concurrency}) as a multiple of direct (${dc.perSecond}/s):`,
  );
  for (const [row, m] of inLoop) {
    if (row !== direct) {
      const goal = GOALS[row.kind];
      console.log(
        `- ${row.label}: ${m.perSecond}/s = ${(m.perSecond / dc.perSecond).toFixed(3)} × direct${goal ? ` (goal ≥ ${goal.capacity})` : ''}`,
      );
    }
  }
  const perWhat = comparison.perWhat ?? 'call';
  console.log(`\nCPU per ${perWhat} during each fixed-rate row (every process that worked):`);
  cpuLines.forEach((line) => console.log(line));
  for (const row of comparison.rows) {
    const goal = GOALS[row.kind];
    const perCall = cpuOf.get(row)!;
    if (!goal) {
      continue;
    }
    // The services' processes for the services row, the one process for its own.
    const counted =
      row.kind === 'services'
        ? comparison.bench.services.map((s) => s.name)
        : [comparison.oneProcess.service.name];
    const platformUs = counted.reduce((sum, name) => sum + (perCall[name] ?? 0), 0);
    console.log(
      `${row.label}: platform CPU per ${perWhat} ${(platformUs / 1000).toFixed(3)} ms (goal ≤ ${goal.cpuMs} ms)` +
        (row.kind === 'services'
          ? `, PostgreSQL ${((perCall.postgres ?? 0) / 1000).toFixed(3)} ms (goal ≤ 0.3 ms)`
          : ''),
    );
  }
  console.log(
    `one process idle again (under 3 % of a core for a second) ${idleAfter.toFixed(1)} s after the fixed-rate load stopped`,
  );
  console.log(`\nCPU per ${perWhat} in each closed loop ×${concurrency} (saturated, R39):`);
  loopCpuLines.forEach((line) => console.log(line));
  if (comparison.whereTheTimeGoes) {
    for (const line of await fromTheTrail(
      comparison.bench.database.url,
      comparison.whereTheTimeGoes,
    )) {
      console.log(line);
    }
  }
  await postgres.close();
  for (const row of comparison.rows) {
    await row.client.close();
  }
}

/** `platform 1.234 ms; `: the row's own processes summed (the goals' figure), or nothing. */
function platformLine<C extends ComparedClient>(
  comparison: RelayComparison<C>,
  kind: RowKind,
  perCall: Record<string, number>,
): string {
  const counted =
    kind === 'services'
      ? comparison.bench.services.map((s) => s.name)
      : kind === 'oneProcess'
        ? [comparison.oneProcess.service.name]
        : [];
  if (counted.length === 0) {
    return '';
  }
  const us = counted.reduce((sum, name) => sum + (perCall[name] ?? 0), 0);
  return `platform ${(us / 1000).toFixed(3)} ms; `;
}

function processesOf<C extends ComparedClient>(comparison: RelayComparison<C>): ServiceProcess[] {
  return [...comparison.bench.services, comparison.oneProcess.service, ...comparison.others];
}

/**
 * BENCH_INSPECT=relay,runner: a CPU profile of each inspected process over the middle of a row's
 * fixed-rate phase (the steady phase), written to bench-profiles/<row>-<process>.cpuprofile; read
 * it with `node dist-bench/bench/floor/profile-by-module.js <file>`.
 */
async function profileSteadyPhase<C extends ComparedClient>(
  row: ComparedRow<C>,
  processes: ServiceProcess[],
  rateSeconds: number,
): Promise<void> {
  const inspected = processes.filter((p) => p.inspectPort !== undefined);
  if (inspected.length === 0) {
    return;
  }
  mkdirSync('bench-profiles', { recursive: true });
  await new Promise((resolve) => setTimeout(resolve, rateSeconds * 250));
  await Promise.all(
    inspected.map((p) =>
      profileOverInspector(
        p.inspectPort!,
        rateSeconds / 2,
        `bench-profiles/${row.kind}-${p.name.replace(/\W+/g, '-')}.cpuprofile`,
      ),
    ),
  );
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

/** Reads the trail of the services' database. */
async function fromTheTrail(
  databaseUrl: string,
  read: (trail: Client) => Promise<string[]>,
): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await read(client);
  } finally {
    await client.end();
  }
}
