import {
  CompiledPolicy,
  JsonValue,
  PatternSets,
  RegoCompileError,
  RegoEvalError,
  Value,
  compilePolicy,
  fromJson,
  runPolicyTests,
} from '@agp/rego';

/** One compile error of a version's `regoSource`, with its line and column (D24). */
export interface PolicyCompileProblem {
  /** `policy.rego` (the version's `regoSource`) or `policy_test.rego` (its `testSource`). */
  file: string;
  code: string;
  message: string;
  row: number;
  col: number;
}

/** Thrown by `compile` when a module does not parse or compile; carries every problem found. */
export class PolicyCompileFailure extends Error {
  constructor(readonly problems: PolicyCompileProblem[]) {
    super(problems.map((p) => `${p.row}:${p.col}: ${p.message}`).join('; '));
    this.name = 'PolicyCompileFailure';
  }
}

/** An input document prepared once per hop and shared by every binding evaluated on it. */
export interface PreparedInput {
  readonly value: Value;
  /** D53: the tenant's pattern sets as this hop sees them (`agp.detect.patterns`). */
  readonly patternSets?: PatternSets;
}

/** The outcome of evaluating one version's decision rule: its raw value, or why it failed. */
export type RawEvaluation =
  { ok: true; value: JsonValue | undefined } | { ok: false; error: string };

/** A version compiled once (with its group's data), evaluated many times. */
export interface CompiledVersionPolicy {
  /** `data.<package>.decision` (D22). */
  readonly decisionRef: string;
  evaluate(input: PreparedInput, options: { timeoutMs: number; now?: Date }): RawEvaluation;
}

const FILE_NAME = 'policy.rego';
const TEST_FILE_NAME = 'policy_test.rego';
/** Budget of one policy test (a hop has 50 ms, D22; a test may build larger fixtures). */
const TEST_TIMEOUT_MS = 1_000;

/** One `test_` rule's outcome (issue 15). */
export interface PolicyTestReport {
  name: string;
  status: 'PASS' | 'FAIL' | 'ERROR' | 'SKIP';
  detail?: string;
  row: number;
  col: number;
}
const PACKAGE_LINE =
  /^\s*package\s+([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:#.*)?$/m;

/** The one place the relay touches `@agp/rego`; everything else depends on this interface. */
export class PolicyEngine {
  compile(regoSource: string, groupData: Record<string, unknown>): CompiledVersionPolicy {
    const packagePath = packagePathOf(regoSource);
    // POLICY.md: the group's data lives under data.<package path>, beside the module's rules.
    const policy = compiling(() =>
      compilePolicy({ [FILE_NAME]: regoSource }, { data: nestUnder(packagePath ?? [], groupData) }),
    );
    if (!packagePath) {
      throw new PolicyCompileFailure([
        {
          file: FILE_NAME,
          code: 'rego_parse_error',
          message: 'no package declaration',
          row: 1,
          col: 1,
        },
      ]);
    }
    return new EngineVersionPolicy(policy, `data.${packagePath.join('.')}.decision`);
  }

  /** Issue 15: as `opa test` does; throws `PolicyCompileFailure` when they do not compile. */
  test(
    regoSource: string,
    testSource: string,
    groupData: Record<string, unknown>,
  ): PolicyTestReport[] {
    const packagePath = packagePathOf(regoSource) ?? [];
    const results = compiling(() =>
      runPolicyTests(
        [
          { file: FILE_NAME, source: regoSource },
          { file: TEST_FILE_NAME, source: testSource },
        ],
        { data: nestUnder(packagePath, groupData), timeoutMs: TEST_TIMEOUT_MS },
      ),
    );
    return results.map((r) => ({
      name: r.name,
      status: r.status,
      ...(r.detail ? { detail: r.detail } : {}),
      row: r.location.row,
      col: r.location.col,
    }));
  }

  prepareInput(input: unknown, patternSets?: PatternSets): PreparedInput {
    return { value: fromJson(input), ...(patternSets ? { patternSets } : {}) };
  }
}

class EngineVersionPolicy implements CompiledVersionPolicy {
  constructor(
    private readonly policy: CompiledPolicy,
    readonly decisionRef: string,
  ) {}

  evaluate(input: PreparedInput, options: { timeoutMs: number; now?: Date }): RawEvaluation {
    try {
      const value = this.policy.evaluateRule(this.decisionRef, {
        inputValue: input.value,
        patternSets: input.patternSets,
        timeoutMs: options.timeoutMs,
        now: options.now,
      });
      return { ok: true, value };
    } catch (error) {
      if (error instanceof RegoEvalError || error instanceof RegoCompileError) {
        return { ok: false, error: error.message };
      }
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }
}

function compiling<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof RegoCompileError) {
      throw new PolicyCompileFailure(
        error.errors.map((e) => ({
          file: e.location.file,
          code: e.code,
          message: e.message,
          row: e.location.row,
          col: e.location.col,
        })),
      );
    }
    throw error;
  }
}

/** The module's package path (`acme.guardrails` → ['acme', 'guardrails']), read after a clean compile. */
export function packagePathOf(regoSource: string): string[] | undefined {
  const match = PACKAGE_LINE.exec(regoSource);
  return match?.[1]?.split('.');
}

function nestUnder(path: string[], value: Record<string, unknown>): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value);
}
