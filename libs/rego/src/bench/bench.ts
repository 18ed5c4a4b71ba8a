// The baseline build is loaded before this one: V8 favours whichever copy of the engine loads
// second (a few per cent in scenario (a)), so the current build takes the disadvantage.
import { baseline } from './baseline';
import { isDeepStrictEqual } from 'node:util';
import { compilePolicy } from '../policy';
import { Scenario, scenarios } from './scenarios';

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
}

/** Median cost of reading the clock twice, subtracted from every sample. */
function timerOverhead(): number {
  const xs: number[] = [];
  for (let i = 0; i < 20000; i++) {
    const t0 = process.hrtime.bigint();
    xs.push(Number(process.hrtime.bigint() - t0));
  }
  xs.sort((a, b) => a - b);
  return xs[xs.length >> 1];
}

const OVERHEAD_NS = timerOverhead();

/** Throughput from a tight loop, then per-call latency (µs, clock overhead removed) call by call. */
function measure(inputs: unknown[], fn: (input: unknown) => unknown, iterations: number): Figures {
  for (let i = 0; i < 5000; i++) {
    fn(inputs[i % inputs.length]);
  }
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    fn(inputs[i % inputs.length]);
  }
  const perSecond = iterations / (Number(process.hrtime.bigint() - start) / 1e9);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    fn(inputs[i % inputs.length]);
    samples.push(Math.max(0, Number(process.hrtime.bigint() - t0) - OVERHEAD_NS) / 1000);
  }
  samples.sort((a, b) => a - b);
  return {
    perSecond,
    p50: samples[Math.floor(samples.length * 0.5)],
    p99: samples[Math.floor(samples.length * 0.99)],
  };
}

function best(a: Figures, b: Figures): Figures {
  return {
    perSecond: Math.max(a.perSecond, b.perSecond),
    p50: Math.min(a.p50, b.p50),
    p99: Math.min(a.p99, b.p99),
  };
}

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

function run(s: Scenario, iterations: number): void {
  const before = heapUsed();
  const policy = compilePolicy(s.modules, { data: s.data });
  const memory = heapUsed() - before;
  for (const input of s.inputs) {
    const got = policy.evaluateRule(s.ref, { input });
    if (!isDeepStrictEqual(got, s.handWritten(input, s.data))) {
      throw new Error(
        `${s.name}: engine and hand-written function disagree for ${JSON.stringify(input).slice(0, 200)}`,
      );
    }
  }
  const base = baseline?.compilePolicy(s.modules, { data: s.data });
  const current = (): Figures =>
    measure(s.inputs, (input) => policy.evaluateRule(s.ref, { input }), iterations);
  let before_: Figures | undefined;
  let rego: Figures;
  if (base) {
    // Two interleaved rounds, the better of each kept, so neither build gains from going second.
    const old = (): Figures =>
      measure(s.inputs, (input) => base.evaluateRule(s.ref, { input }), iterations);
    before_ = old();
    rego = current();
    before_ = best(before_, old());
    rego = best(rego, current());
  } else {
    rego = current();
  }
  const ts = measure(s.inputs, (input) => s.handWritten(input, s.data), iterations);
  const fmt = (n: number): string => n.toFixed(2).padStart(8);
  console.log(`\n${s.name}`);
  console.log(
    `  rego engine  : ${Math.round(rego.perSecond).toLocaleString('en-US').padStart(10)} eval/s  p50 ${fmt(rego.p50)} µs  p99 ${fmt(rego.p99)} µs`,
  );
  if (before_) {
    console.log(
      `  baseline     : ${Math.round(before_.perSecond).toLocaleString('en-US').padStart(10)} eval/s  p50 ${fmt(before_.p50)} µs  p99 ${fmt(before_.p99)} µs  (new/baseline p50 ${(rego.p50 / before_.p50).toFixed(2)}, eval/s ${(rego.perSecond / before_.perSecond).toFixed(2)})`,
    );
  }
  console.log(
    `  hand-written : ${Math.round(ts.perSecond).toLocaleString('en-US').padStart(10)} eval/s  p50 ${fmt(ts.p50)} µs  p99 ${fmt(ts.p99)} µs`,
  );
  console.log(
    `  ratio p50    : ${(rego.p50 / ts.p50).toFixed(1)}x   compiled policy + data heap: ${(memory / 1024).toFixed(0)} KiB${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for exact figures)'}`,
  );
}

const iterations = Number(process.env.BENCH_ITERATIONS ?? 100_000);
console.log(
  `@agp/rego benchmark: node ${process.version}, ${iterations.toLocaleString('en-US')} evaluations per scenario (JSON input converted on every call; clock overhead ${OVERHEAD_NS} ns removed)`,
);
if (baseline) {
  console.log(`baseline build: ${process.env.REGO_BASELINE_DIST}`);
}
for (const s of scenarios()) {
  run(s, iterations);
}
