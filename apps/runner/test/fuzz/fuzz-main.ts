import 'reflect-metadata';

import { writeFileSync } from 'node:fs';

import { recordFindings } from './regressions';
import { FuzzReport } from './fuzz-runner';
import { startFuzzSession } from './fuzz-session';

/**
 * `npm run fuzz` (issue 18 § 3): FUZZ_SEED (default: the clock, printed), FUZZ_RUNS (default
 * 50,000 generated requests across every operation), FUZZ_ONLY (an operation key prefix),
 * FUZZ_CONCURRENCY (resource groups at once, default 4), FUZZ_REPORT (a file for the JSON report). Prints
 * the figures, records every new counterexample in regressions.json, exits 1 on any finding.
 */
async function main(): Promise<void> {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
  const runs = Number(process.env.FUZZ_RUNS ?? 50_000);
  if (!Number.isInteger(seed) || !Number.isInteger(runs) || runs < 1) {
    throw new Error('FUZZ_SEED and FUZZ_RUNS must be integers (FUZZ_RUNS ≥ 1)');
  }
  const session = await startFuzzSession();
  try {
    process.stdout.write(
      `fuzz: seed ${seed}, ${runs} generated requests, ${session.runner.operations.length} operations\n`,
    );
    const report = await session.runner.run({
      seed,
      runs,
      only: process.env.FUZZ_ONLY,
      concurrency: Number(process.env.FUZZ_CONCURRENCY ?? 4),
      onFinding: (finding) =>
        process.stdout.write(
          `  FOUND ${finding.kind} on ${finding.operation}: ${finding.detail}\n` +
            (finding.case ? `    case ${JSON.stringify(finding.case).slice(0, 600)}\n` : '') +
            (finding.log ? `    log ${finding.log.slice(0, 600)}\n` : ''),
        ),
    });
    printReport(report);
    if (process.env.FUZZ_REPORT) {
      writeFileSync(process.env.FUZZ_REPORT, `${JSON.stringify(report, null, 2)}\n`);
    }
    const added = recordFindings(report.findings, seed);
    process.stdout.write(
      `recorded ${added} new regression case(s) in test/fuzz/regressions.json\n`,
    );
    process.exitCode = report.findings.length ? 1 : 0;
  } finally {
    await session.close();
  }
}

function printReport(report: FuzzReport): void {
  const seconds = report.durationMs / 1000;
  const perOperation = Object.values(report.perOperation).map((statuses) =>
    Object.values(statuses).reduce((sum, n) => sum + n, 0),
  );
  const lines = [
    '',
    `seed                 ${report.seed}`,
    `requests             ${report.requests} (${Math.round(report.requests / seconds)}/s) + ${report.seedRequests} to create resources`,
    `operations           ${report.operationsExercised} of ${report.operations}, ${report.operationsWithSuccess} answered 2xx at least once`,
    `seeded collections   tenant A ${report.seededCollections.a}, tenant B ${report.seededCollections.b}`,
    `per operation        ${Math.min(...perOperation)} to ${Math.max(...perOperation)} requests`,
    `per caller kind      ${Object.entries(report.perCaller)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `per mutation         ${Object.entries(report.perMutation)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `per status           ${Object.entries(report.perStatus)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `5xx answers          ${Object.entries(report.perStatus)
      .filter(([s]) => s >= '500')
      .reduce((n, [, v]) => n + v, 0)}`,
    `state checks         ${report.stateChecks} write operations, lists read before and after rejected writes`,
    `findings             ${report.findings.length}`,
    `duration             ${seconds.toFixed(1)} s`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `fuzz: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(2);
});
