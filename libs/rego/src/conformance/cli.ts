import * as path from 'node:path';
import { defaultCasesDir, loadCases } from './cases';
import { CaseResult, runCase } from './runner';

/** `npm run conformance -w @agp/rego [-- DIR]`: runs every case and prints a summary. */
function main(): void {
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : defaultCasesDir();
  const results: CaseResult[] = loadCases(dir).map(runCase);
  const byCat = new Map<string, [number, number]>();
  for (const r of results) {
    const e = byCat.get(r.case.category) ?? [0, 0];
    e[r.passed ? 0 : 1]++;
    byCat.set(r.case.category, e);
  }
  const lines = ['category'.padEnd(36) + 'passed'.padStart(8) + 'failed'.padStart(8)];
  for (const [cat, [p, f]] of [...byCat].sort()) {
    lines.push(cat.padEnd(36) + String(p).padStart(8) + String(f).padStart(8));
  }
  console.log(lines.join('\n'));
  const failed = results.filter((r) => !r.passed);
  if (failed.length > 0) {
    console.log('\nFailing cases:');
    for (const r of failed) {
      console.log(
        `- ${r.case.file}#${r.case.index} ${r.case.spec.note}\n    expected: ${r.expected.slice(0, 400)}\n    actual:   ${r.actual.slice(0, 400)}`,
      );
    }
  }
  const passed = results.length - failed.length;
  console.log(`\n${passed} passed, ${failed.length} failed`);
}

main();
