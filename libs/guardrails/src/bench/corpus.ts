import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { Finding } from '../finding';

export interface Labelled {
  text: string;
  labels?: { type: string; value: string }[];
  injection?: boolean;
}

export const CORPUS_DIR = join(__dirname, '..', '..', 'corpus');
export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

export function readCorpus(name: string): Labelled[] {
  return readFileSync(join(CORPUS_DIR, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Labelled);
}

export interface TypeScore {
  tp: number;
  fp: number;
  fn: number;
}

/** Precision and recall per type: a finding counts when it overlaps a labelled value of its type. */
export function scoreSpans(
  rows: Labelled[],
  detect: (t: string) => Finding[],
): Map<string, TypeScore> {
  const scores = new Map<string, TypeScore>();
  const of = (type: string): TypeScore => {
    let s = scores.get(type);
    if (!s) {
      scores.set(type, (s = { tp: 0, fp: 0, fn: 0 }));
    }
    return s;
  };
  for (const row of rows) {
    const spans = (row.labels ?? []).map((l) => {
      const start = row.text.indexOf(l.value);
      if (start < 0) {
        throw new Error(`label ${l.type} not in text: ${row.text}`);
      }
      return { type: l.type, start, end: start + l.value.length };
    });
    const found = detect(row.text);
    for (const f of found) {
      const hit = spans.some((s) => s.type === f.type && s.start < f.end && f.start < s.end);
      of(f.type)[hit ? 'tp' : 'fp'] += hit ? 1 : 1;
    }
    for (const s of spans) {
      if (!found.some((f) => f.type === s.type && s.start < f.end && f.start < s.end)) {
        of(s.type).fn += 1;
      }
    }
  }
  return scores;
}

/** Ordinary text: the repository's documentation and product source (not its tests, nor the guardrails' own samples). */
export function ordinaryLines(): string[] {
  const lines: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist' || name === 'test' || name.startsWith('.')) {
        continue;
      }
      if (statSync(path).isDirectory()) {
        walk(path);
      } else if (
        /\.(?:md|ts)$/.test(name) &&
        !/\.(?:spec|e2e-spec)\.ts$/.test(name) &&
        !path.includes('corpus') &&
        !path.includes('/guardrails/')
      ) {
        lines.push(...readFileSync(path, 'utf8').split('\n'));
      }
    }
  };
  for (const dir of [
    'docs',
    'apps/relay/src',
    'apps/tenant-auth/src',
    'apps/audit/src',
    'libs/rego/src',
    'libs/messaging/src',
  ]) {
    walk(join(REPO_ROOT, dir));
  }
  return lines;
}
