import { DocNode } from '../compiler/types';
import { RegoCompileError, RegoErrorDetail, RegoEvalError } from '../errors';
import { CompiledPolicy, ModulesInput, compilePolicy } from '../policy';

/** Outcome of one `test_` rule, as `opa test` reports it. */
export interface PolicyTestResult {
  /** Full rule name, e.g. `data.acme.guardrails_test.test_blocks_secrets`. */
  name: string;
  /** PASS: defined and not false; FAIL: undefined or false; ERROR: evaluation error; SKIP: `todo_`. */
  status: 'PASS' | 'FAIL' | 'ERROR' | 'SKIP';
  /** Why a test failed or errored. */
  detail?: string;
  /** Where the rule is defined. */
  location: { file: string; row: number; col: number };
  durationMs: number;
}

export interface PolicyTestOptions {
  /** Base `data` document. */
  data?: unknown;
  /** Only tests whose full name matches (OPA's `--run`). */
  run?: RegExp;
  /** Budget of one test (default 5,000 ms; policy evaluation keeps its own 50 ms default). */
  timeoutMs?: number;
  /** Receives `print` output of the tests. */
  print?: (line: string) => void;
  /** Compile in OPA's strict mode (`opa test --strict`). */
  strict?: boolean;
  /** JSON schemas for type checking (`opa test --schema`; see `compilePolicy`). */
  schemas?: Record<string, unknown>;
}

/** Modules that do not compile throw `RegoCompileError` before any test runs. */
export function runPolicyTests(
  modules: ModulesInput,
  options: PolicyTestOptions = {},
): PolicyTestResult[] {
  const policy = compilePolicy(modules, {
    data: options.data ?? {},
    strict: options.strict,
    schemas: options.schemas,
  });
  return testRules(policy)
    .filter((t) => !options.run || options.run.test(t.name))
    .map((t) => runOne(policy, t, options));
}

interface TestRule {
  name: string;
  skip: boolean;
  location: { file: string; row: number; col: number };
}

function testRules(policy: CompiledPolicy): TestRule[] {
  const out: TestRule[] = [];
  const visit = (node: DocNode): void => {
    const last = node.path[node.path.length - 1] ?? '';
    const rule = node.rules[0] ?? node.defaultRule;
    if (rule && (last.startsWith('test_') || last.startsWith('todo_'))) {
      out.push({
        name: ['data', ...node.path].join('.'),
        skip: last.startsWith('todo_'),
        location: rule.loc,
      });
    }
    [...node.children.values()].forEach(visit);
  };
  visit(policy.program.root);
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function runOne(policy: CompiledPolicy, t: TestRule, options: PolicyTestOptions): PolicyTestResult {
  const started = process.hrtime.bigint();
  const done = (status: PolicyTestResult['status'], detail?: string): PolicyTestResult => ({
    name: t.name,
    status,
    ...(detail ? { detail } : {}),
    location: t.location,
    durationMs: Number(process.hrtime.bigint() - started) / 1e6,
  });
  if (t.skip) {
    return done('SKIP');
  }
  try {
    const value = policy.evaluateValue(t.name, {
      timeoutMs: options.timeoutMs ?? 5_000,
      print: options.print,
    });
    if (value === undefined) {
      return done('FAIL', 'undefined');
    }
    if (value === false) {
      return done('FAIL', 'false');
    }
    return done('PASS');
  } catch (e) {
    if (e instanceof RegoEvalError) {
      return done('ERROR', e.message);
    }
    throw e;
  }
}

/** OPA's summary lines (`PASS: n/m`, …) under one line per test. */
export function formatTestReport(results: PolicyTestResult[], verbose = false): string {
  const lines: string[] = [];
  for (const r of results) {
    if (verbose || r.status !== 'PASS') {
      const where = `${r.location.file}:${r.location.row}`;
      lines.push(
        `${r.name}: ${r.status} (${r.durationMs.toFixed(1)}ms)${r.detail ? ` ${r.detail}` : ''} [${where}]`,
      );
    }
  }
  lines.push('-'.repeat(80));
  const count = (s: PolicyTestResult['status']): number =>
    results.filter((r) => r.status === s).length;
  for (const s of ['PASS', 'FAIL', 'SKIP', 'ERROR'] as const) {
    if (count(s) > 0) {
      lines.push(`${s}: ${count(s)}/${results.length}`);
    }
  }
  if (results.length === 0) {
    lines.push('no tests found');
  }
  return lines.join('\n');
}

/** Compile errors in the form the CLI prints them (`file:row: code: message`). */
export function formatCompileErrors(e: RegoCompileError): string {
  return e.errors
    .map((d: RegoErrorDetail) => `${d.location.file}:${d.location.row}: ${d.code}: ${d.message}`)
    .join('\n');
}
