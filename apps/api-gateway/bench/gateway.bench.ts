import { join } from 'node:path';

import { runAuthBench } from './auth.bench';
import { LatencyReport, fixedRate, maxThroughput } from './load';
import { startProcess, waitReady } from './processes';

const SERVICE_PORT = 18_301;
const GATEWAY_PORT = 18_300;
const PATH = '/audit/v1/bench/ping';
const RATE = 1_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

function row(report: LatencyReport): string {
  return [
    report.label.padEnd(34),
    report.ratePerSec.toFixed(0).padStart(8),
    report.p50Us.toFixed(0).padStart(8),
    report.p99Us.toFixed(0).padStart(8),
    String(report.errors).padStart(7),
  ].join(' ');
}

/**
 * `npm run bench -w @agp/api-gateway`: the same GET straight to a service and through the gateway,
 * in the same run, at 1,000 requests/s (latency) and closed-loop (throughput).
 */
async function main(): Promise<void> {
  const service = startProcess(join(__dirname, 'bench-service.js'), [String(SERVICE_PORT)], {});
  // The proxy hop alone; token verification is measured against this same baseline by runAuthBench.
  const gateway = startProcess(join(__dirname, 'gateway-unverified.js'), [], {
    PORT: String(GATEWAY_PORT),
    LOG_LEVEL: 'warn',
    AUDIT_URL: `http://127.0.0.1:${SERVICE_PORT}`,
  });
  try {
    await waitReady(`http://127.0.0.1:${SERVICE_PORT}/health/live`);
    await waitReady(`http://127.0.0.1:${GATEWAY_PORT}/health/live`);
    const direct = `http://127.0.0.1:${SERVICE_PORT}`;
    const viaGateway = `http://127.0.0.1:${GATEWAY_PORT}`;
    await fixedRate('warm-up', viaGateway, PATH, RATE, 2);
    await fixedRate('warm-up', direct, PATH, RATE, 2);

    const reports: LatencyReport[] = [];
    for (const round of [1, 2]) {
      reports.push(await fixedRate(`direct @1000/s (round ${round})`, direct, PATH, RATE, SECONDS));
      reports.push(
        await fixedRate(`gateway @1000/s (round ${round})`, viaGateway, PATH, RATE, SECONDS),
      );
    }
    reports.push(await maxThroughput('direct, closed loop x32', direct, PATH, SECONDS));
    reports.push(await maxThroughput('gateway, closed loop x32', viaGateway, PATH, SECONDS));

    console.log(`GET ${PATH}, ${SECONDS}s per scenario, node ${process.version}`);
    console.log(
      `${'scenario'.padEnd(34)} ${'req/s'.padStart(8)} ${'p50 µs'.padStart(8)} ${'p99 µs'.padStart(8)} ${'errors'.padStart(7)}`,
    );
    reports.forEach((report) => console.log(row(report)));
    const p50 = (label: string): number[] =>
      reports
        .filter((r) => r.label.startsWith(label) && r.label.includes('1000'))
        .map((r) => r.p50Us);
    const added = p50('gateway').map((value, i) => value - (p50('direct')[i] ?? NaN));
    console.log(
      `hop adds at p50 @1000/s: ${added.map((us) => `${(us / 1000).toFixed(3)} ms`).join(', ')} (goal ≤ 0.300 ms)`,
    );
    const auth = await runAuthBench(direct, SECONDS, RATE);
    auth.reports.forEach((report) => console.log(row(report)));
    auth.notes.forEach((note) => console.log(note));
  } finally {
    gateway.kill('SIGTERM');
    service.kill('SIGTERM');
  }
}

void main();
