import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { FuzzCase } from './fuzz-case';
import { Finding } from './fuzz-runner';

/** A case that once found a defect: replayed by the fuzz spec on every `npm test`. */
export interface RecordedCase {
  operation: string;
  kind: string;
  detail: string;
  /** The FUZZ_SEED of the run that found it (the operation's own seed is derived from it). */
  seed: number;
  foundAt: string;
  case: FuzzCase;
}

export const REGRESSIONS_FILE = join(__dirname, 'regressions.json');

export function readRegressions(): RecordedCase[] {
  return JSON.parse(readFileSync(REGRESSIONS_FILE, 'utf8')) as RecordedCase[];
}

/**
 * Adds the findings with a counterexample to the recorded cases (one per operation, kind and
 * mutation: the same defect found again adds nothing), so every seed that ever found a defect
 * stays a regression case (issue 18 Must show).
 */
export function recordFindings(findings: Finding[], runSeed: number): number {
  const recorded = readRegressions();
  const keyOf = (c: { operation: string; kind: string; case: FuzzCase }): string =>
    `${c.operation}|${c.kind}|${c.case.mutation}|${c.case.caller}`;
  const known = new Set(recorded.map(keyOf));
  let added = 0;
  for (const finding of findings) {
    if (!finding.case) {
      continue;
    }
    const entry: RecordedCase = {
      operation: finding.operation,
      kind: finding.kind,
      detail: finding.detail.slice(0, 300),
      seed: runSeed,
      foundAt: new Date().toISOString().slice(0, 10),
      case: finding.case,
    };
    if (!known.has(keyOf(entry))) {
      known.add(keyOf(entry));
      recorded.push(entry);
      added += 1;
    }
  }
  if (added > 0) {
    // Run prettier on it before committing: the hook formats JSON too.
    writeFileSync(REGRESSIONS_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
  }
  return added;
}
