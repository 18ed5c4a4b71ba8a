import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultCasesDir, loadCases } from './cases';
import { CaseResult, runCase } from './runner';

/** `npm run conformance -w @agp/rego [-- DIR] [--exclude-shared]`. */
function main(): void {
  const args = process.argv.slice(2);
  const excludeShared = args.includes('--exclude-shared');
  const positional = args.filter((a) => !a.startsWith('--'));
  const fromEnv = process.env.OPA_CASES_DIR;
  const dir = positional[0]
    ? path.resolve(positional[0])
    : fromEnv
      ? path.resolve(fromEnv)
      : defaultCasesDir();
  // --exclude-shared: only OPA's categories that ../shared/rego-conformance does not hold (the
  // measurement of issue 15 on cases the engine was not fitted to).
  const shared = excludeShared ? sharedCategories() : new Set<string>();
  const results: CaseResult[] = loadCases(dir)
    .filter((c) => !shared.has(c.category))
    .map(runCase);
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

function sharedCategories(): Set<string> {
  const dir = defaultCasesDir();
  return new Set(
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => e.name)
      : [],
  );
}

main();
