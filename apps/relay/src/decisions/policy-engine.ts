import {
  CompiledPolicy,
  JsonValue,
  RegoCompileError,
  RegoEvalError,
  Value,
  compilePolicy,
  fromJson,
} from '@agp/rego';

/** One compile error of a version's `regoSource`, with its line and column (D24). */
export interface PolicyCompileProblem {
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
const PACKAGE_LINE =
  /^\s*package\s+([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:#.*)?$/m;

/**
 * The one place the relay touches the Rego engine (`@agp/rego`): compiling a version and
 * evaluating its decision rule. Everything else depends on this interface only.
 */
export class PolicyEngine {
  compile(regoSource: string, groupData: Record<string, unknown>): CompiledVersionPolicy {
    let policy: CompiledPolicy;
    const packagePath = packagePathOf(regoSource);
    try {
      // POLICY.md: the group's data lives under data.<package path>, beside the module's rules.
      policy = compilePolicy(
        { [FILE_NAME]: regoSource },
        { data: nestUnder(packagePath ?? [], groupData) },
      );
    } catch (error) {
      if (error instanceof RegoCompileError) {
        throw new PolicyCompileFailure(
          error.errors.map((e) => ({
            code: e.code,
            message: e.message,
            row: e.location.row,
            col: e.location.col,
          })),
        );
      }
      throw error;
    }
    if (!packagePath) {
      throw new PolicyCompileFailure([
        { code: 'rego_parse_error', message: 'no package declaration', row: 1, col: 1 },
      ]);
    }
    return new EngineVersionPolicy(policy, `data.${packagePath.join('.')}.decision`);
  }

  prepareInput(input: unknown): PreparedInput {
    return { value: fromJson(input) };
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

/** The module's package path (`acme.guardrails` → ['acme', 'guardrails']), read after a clean compile. */
export function packagePathOf(regoSource: string): string[] | undefined {
  const match = PACKAGE_LINE.exec(regoSource);
  return match?.[1]?.split('.');
}

function nestUnder(path: string[], value: Record<string, unknown>): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value);
}
