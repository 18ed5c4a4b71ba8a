import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { parseJsonText } from '../values/json-text';

/** One OPA test case (fields as in OPA's `v1/test/cases/cases.go`). */
export interface ConformanceCase {
  note: string;
  query: string;
  modules?: string[];
  data?: unknown;
  input?: unknown;
  input_term?: string;
  want_result?: Record<string, unknown>[];
  sort_bindings?: boolean;
  want_error_code?: string;
  want_error?: string;
  strict_error?: boolean;
}

export interface LoadedCase {
  file: string;
  category: string;
  index: number;
  spec: ConformanceCase;
}

/** Repository root: the nearest ancestor holding `turbo.json`. */
export function repoRoot(from: string = __dirname): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, 'turbo.json'))) {
    const up = path.dirname(dir);
    if (up === dir) {
      return from;
    }
    dir = up;
  }
  return dir;
}

/**
 * Default case directory: `REGO_CONFORMANCE_DIR` when set, otherwise `shared/rego-conformance/cases`
 * in the nearest ancestor of the repository that has one (`../shared/…` beside a clone; a git worktree
 * one level deeper finds the same directory).
 */
export function defaultCasesDir(): string {
  const fromEnv = process.env.REGO_CONFORMANCE_DIR;
  if (fromEnv) {
    return path.resolve(fromEnv);
  }
  const beside = path.resolve(repoRoot(), '..', 'shared', 'rego-conformance', 'cases');
  let dir = path.dirname(repoRoot());
  for (;;) {
    const candidate = path.join(dir, 'shared', 'rego-conformance', 'cases');
    if (fs.existsSync(candidate)) {
      return candidate;
    }
    const up = path.dirname(dir);
    if (up === dir) {
      return beside;
    }
    dir = up;
  }
}

function listYaml(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      out.push(...listYaml(p));
    } else if (/\.(ya?ml|json)$/.test(e.name)) {
      out.push(p);
    }
  }
  return out.sort();
}

/** Every case of every `.yaml`/`.yml` file under `dir` (integers read exactly as bigint). */
export function loadCases(dir: string): LoadedCase[] {
  const out: LoadedCase[] = [];
  for (const file of listYaml(dir)) {
    const text = fs.readFileSync(file, 'utf8');
    // OPA's JSON export keeps number texts (json.Number); YAML numbers are YAML's.
    const doc = (
      file.endsWith('.json') ? parseJsonText(text) : parse(text, { intAsBigInt: true })
    ) as {
      cases?: ConformanceCase[];
    } | null;
    const rel = path.relative(dir, file);
    const category = rel.includes(path.sep)
      ? rel.split(path.sep)[0]
      : path.basename(file).replace(/\.(ya?ml|json)$/, '');
    (doc?.cases ?? []).forEach((spec, index) => out.push({ file: rel, category, index, spec }));
  }
  return out;
}
