import { Value } from '../values/value';

/** Thrown by a built-in; becomes `eval_builtin_error` / `eval_type_error` (or undefined when not strict). */
export class BuiltinError extends Error {
  constructor(
    readonly code: 'eval_builtin_error' | 'eval_type_error',
    message: string,
  ) {
    super(message);
  }
}

export interface BuiltinContext {
  /** Nanoseconds since the epoch, fixed for one evaluation (`time.now_ns`). */
  nowNs(): bigint;
  /** Same result for the same key within one evaluation (OPA caches non-deterministic built-ins). */
  once(key: string, make: () => Value): Value;
  /** Charges `n` steps to the evaluation budget (throws when it is exhausted). */
  tick(n: number): void;
  /** Captured `print` output. */
  print(line: string): void;
  /** D53: the findings of the caller's pattern set `name` in `text` (empty when none is given). */
  patternFindings(name: string, text: string): PatternFinding[];
}

/** A finding of `agp.detect.patterns` (D50's shape plus the pattern's D53 `mode`). */
export interface PatternFinding {
  type: string;
  start: number;
  end: number;
  score: number;
  mode: string;
}

/** What an evaluation knows of the tenant's pattern sets (D53); the caller compiles and counts. */
export interface PatternSets {
  findings(name: string, text: string): PatternFinding[];
}

export interface BuiltinDef {
  name: string;
  arity: number;
  /** Returns the result, or undefined when the built-in is undefined for these operands. */
  fn: (args: Value[], ctx: BuiltinContext) => Value | undefined;
  /** Relations (such as `walk`) return every result. */
  relation?: (args: Value[], ctx: BuiltinContext) => Value[];
  /** Named built-ins we know but do not implement (usable only when mocked with `with`). */
  unsupported?: boolean;
  /** Why an unsupported built-in is missing (named in the compile error). */
  reason?: string;
  /** Calls are never cached or folded (non-deterministic). */
  variadic?: boolean;
}
