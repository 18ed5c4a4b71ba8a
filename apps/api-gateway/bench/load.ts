import { Pool } from 'undici';

export interface LatencyReport {
  label: string;
  requests: number;
  errors: number;
  ratePerSec: number;
  p50Us: number;
  p99Us: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function send(pool: Pool, path: string, headers: Record<string, string>): Promise<boolean> {
  const response = await pool.request({ method: 'GET', path, headers });
  await response.body.dump();
  return response.statusCode === 200;
}

/**
 * Open-loop load at a fixed rate: latency is measured from each request's scheduled time, so a
 * stall shows up in p99 instead of slowing the generator down (no coordinated omission).
 */
export async function fixedRate(
  label: string,
  origin: string,
  path: string,
  ratePerSec: number,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<LatencyReport> {
  const pool = new Pool(origin, { connections: 32, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const total = ratePerSec * seconds;
  const intervalNs = 1e9 / ratePerSec;
  const start = process.hrtime.bigint();
  const inFlight: Array<Promise<void>> = [];
  for (let i = 0; i < total; i += 1) {
    const scheduled = start + BigInt(Math.round(i * intervalNs));
    while (process.hrtime.bigint() < scheduled) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    inFlight.push(
      send(pool, path, headers).then(
        (ok) => {
          latencies.push(Number(process.hrtime.bigint() - scheduled) / 1000);
          errors += ok ? 0 : 1;
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const elapsedSec = Number(process.hrtime.bigint() - start) / 1e9;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    label,
    requests: total,
    errors,
    ratePerSec: total / elapsedSec,
    p50Us: percentile(latencies, 50),
    p99Us: percentile(latencies, 99),
  };
}

/** Closed loop: `concurrency` requests always in flight, for the throughput ceiling. */
export async function maxThroughput(
  label: string,
  origin: string,
  path: string,
  seconds: number,
  concurrency = 32,
  headers: Record<string, string> = {},
): Promise<LatencyReport> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = process.hrtime.bigint() + BigInt(seconds * 1e9);
  const start = process.hrtime.bigint();
  const worker = async (): Promise<void> => {
    while (process.hrtime.bigint() < deadline) {
      const sent = process.hrtime.bigint();
      const ok = await send(pool, path, headers).catch(() => false);
      latencies.push(Number(process.hrtime.bigint() - sent) / 1000);
      errors += ok ? 0 : 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedSec = Number(process.hrtime.bigint() - start) / 1e9;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    label,
    requests: latencies.length,
    errors,
    ratePerSec: latencies.length / elapsedSec,
    p50Us: percentile(latencies, 50),
    p99Us: percentile(latencies, 99),
  };
}
