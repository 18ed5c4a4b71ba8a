export interface Measurement {
  label: string;
  operations: number;
  perSecond: number;
  p50Us: number;
  p99Us: number;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function summarize(label: string, latenciesUs: number[], elapsedSec: number): Measurement {
  const sorted = Float64Array.from(latenciesUs).sort();
  return {
    label,
    operations: latenciesUs.length,
    perSecond: Math.round(latenciesUs.length / elapsedSec),
    p50Us: Math.round(percentile(sorted, 50) * 10) / 10,
    p99Us: Math.round(percentile(sorted, 99) * 10) / 10,
  };
}

/** One call at a time: each call's own latency, and calls per second of the whole loop. */
export async function sequential(
  label: string,
  iterations: number,
  warmup: number,
  run: () => unknown,
): Promise<Measurement> {
  for (let i = 0; i < warmup; i += 1) {
    await run();
  }
  const latencies = new Array<number>(iterations);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) {
    const t0 = process.hrtime.bigint();
    await run();
    latencies[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  return summarize(label, latencies, Number(process.hrtime.bigint() - start) / 1e9);
}

/** `concurrency` callers in a closed loop for `seconds`: throughput and per-call latency. */
export async function closedLoop(
  label: string,
  concurrency: number,
  seconds: number,
  run: () => Promise<void>,
): Promise<Measurement> {
  const latencies: number[] = [];
  const start = process.hrtime.bigint();
  const end = start + BigInt(Math.round(seconds * 1e9));
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (process.hrtime.bigint() < end) {
        const t0 = process.hrtime.bigint();
        await run();
        latencies.push(Number(process.hrtime.bigint() - t0) / 1000);
      }
    }),
  );
  return summarize(label, latencies, Number(process.hrtime.bigint() - start) / 1e9);
}

export function table(rows: Measurement[]): string {
  const lines = [
    '| measurement | operations | per second | p50 (µs) | p99 (µs) |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(`| ${r.label} | ${r.operations} | ${r.perSecond} | ${r.p50Us} | ${r.p99Us} |`);
  }
  return lines.join('\n');
}
