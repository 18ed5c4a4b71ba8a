#!/usr/bin/env node
// `npm test`: build, lint, the Prettier check, typecheck, unit specs and service tests of every workspace through
// turbo, then one closing line over all of them: "N passed, N failed, N skipped".
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(root, '.test-results');
rmSync(resultsDir, { recursive: true, force: true });

const turbo = spawnSync(
  'npx',
  [
    'turbo',
    'run',
    'build',
    'lint',
    'format:check',
    'typecheck',
    'test',
    'test:e2e',
    '--concurrency=2',
    '--continue',
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
);

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const runs = existsSync(resultsDir) ? readdirSync(resultsDir) : [];
for (const file of runs) {
  const result = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
  totals.passed += result.passed;
  totals.failed += result.failed;
  totals.skipped += result.skipped;
  for (const failure of result.failures ?? [])
    failures.push({ package: result.package, ...failure });
}
const status = turbo.status ?? 1;
if (status !== 0 && totals.failed === 0) {
  // Lint, typecheck or build failed: no test failed, but the run did.
  totals.failed += 1;
  console.error('agp: a build, lint or typecheck task failed (see above)');
}
for (const failure of failures) {
  console.error(`\nFAILED ${failure.package} ${failure.file} › ${failure.test}\n${failure.error}`);
}
console.log(`\n${runs.length} test runs`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(status);
