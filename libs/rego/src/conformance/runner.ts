import { RegoCompileError, RegoEvalError } from '../errors';
import { tokenize } from '../lexer/lexer';
import { constantValue } from '../compiler/constant';
import { Cursor } from '../parser/cursor';
import { parseTerm } from '../parser/terms';
import { compilePolicy } from '../policy';
import { fromJson, toJsonExact } from '../values/json';
import { RegoObject, Value, canonical, compareValues } from '../values/value';
import { LoadedCase } from './cases';
import { registerHarnessBuiltins } from './harness-builtins';

registerHarnessBuiltins();

export interface CaseResult {
  case: LoadedCase;
  passed: boolean;
  expected: string;
  actual: string;
}

/** Runs one case the way OPA's `testRun` does. */
export function runCase(c: LoadedCase): CaseResult {
  const s = c.spec;
  const wantsError = s.want_error_code !== undefined || s.want_error !== undefined;
  const expected = wantsError
    ? `error ${s.want_error_code ?? ''} ${JSON.stringify(s.want_error ?? '')}`
    : describe((s.want_result ?? []).map((r) => normalizeExpected(r)));
  let actual: string;
  let passed: boolean;
  try {
    const modules = (s.modules ?? []).map((source, i) => ({ file: `test-${i}.rego`, source }));
    const policy = compilePolicy(modules, { data: s.data ?? {} });
    const input =
      s.input_term !== undefined
        ? parseInputTerm(s.input_term)
        : s.input === undefined
          ? undefined
          : fromJson(s.input);
    const rows = policy.query(s.query, {
      inputValue: input,
      strictBuiltinErrors: s.strict_error ?? false,
      timeoutMs: 5000,
      now: new Date(),
    });
    const got = rows.map((m) => normalizeActual(m, s.sort_bindings ?? false));
    actual = describe(got);
    passed =
      !wantsError &&
      sameSet(
        got,
        (s.want_result ?? []).map((r) => normalizeExpected(r)),
      );
  } catch (e) {
    const code =
      e instanceof RegoEvalError
        ? e.code
        : e instanceof RegoCompileError
          ? e.errors[0]?.code
          : 'internal';
    const msg = e instanceof Error ? e.message : String(e);
    actual = `error ${code} ${JSON.stringify(msg)}`;
    passed =
      wantsError &&
      (s.want_error_code === undefined || s.want_error_code === code) &&
      (s.want_error === undefined || msg.includes(s.want_error));
  }
  return { case: c, passed, expected, actual };
}

function parseInputTerm(text: string): Value {
  const t = parseTerm(new Cursor(tokenize(text, 'input'), 'input'));
  const v = constantValue(t);
  if (v === undefined) {
    throw new Error('input_term is not a constant');
  }
  return v;
}

function normalizeExpected(r: Record<string, unknown>): string {
  const o = new RegoObject();
  for (const [k, v] of Object.entries(r)) {
    o.set(k, fromJson(toJsonExact(fromJson(v))));
  }
  return canonical(o);
}

function normalizeActual(m: Map<string, Value>, sort: boolean): string {
  const o = new RegoObject();
  for (const [k, v] of m) {
    let n = fromJson(toJsonExact(v));
    if (sort && Array.isArray(n)) {
      n = [...n].sort(compareValues);
    }
    o.set(k, n);
  }
  return canonical(o);
}

function sameSet(a: string[], b: string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

function describe(rows: string[]): string {
  return rows.length === 0 ? '(undefined)' : rows.join(' ');
}
