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
