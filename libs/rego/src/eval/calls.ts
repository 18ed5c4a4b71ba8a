import { CallTarget, CallTerm, Location } from '../ast/ast';
import { BuiltinError } from '../builtins/types';
import { CompiledRule } from '../compiler/types';
import { RegoEvalError } from '../errors';
import { Value, canonical, valuesEqual } from '../values/value';
import { conflict } from './builder';
import type { Evaluator } from './evaluator';
import { Frame, UNDEF, VK } from './state';

/** Evaluates the first `n` arguments of a call and enumerates the call's results. */
export function callTarget(ev: Evaluator, t: CallTerm, n: number, f: Frame, vk: VK): boolean {
  const target = t.target;
  if (!target) {
    return false;
  }
  return ev.items(n === t.args.length ? t.args : t.args.slice(0, n), 0, [], f, (args) =>
    invoke(ev, target, args, t.loc, vk),
  );
}

/** Invokes a built-in or user function (after `with` mocks) with evaluated arguments. */
export function invoke(
  ev: Evaluator,
  target: CallTarget,
  args: Value[],
  loc: Location,
  vk: VK,
): boolean {
  const key = target.kind === 'builtin' ? target.name : target.path.join('.');
  const mock = ev.state.mocks.size > 0 ? ev.state.mocks.get(key) : undefined;
  if (mock) {
    if (mock.kind === 'value') {
      return vk(mock.value);
    }
    if (
      mock.target.kind !== target.kind ||
      (mock.target.kind === 'builtin' ? mock.target.name : mock.target.path.join('.')) !== key
    ) {
      return withoutMocks(ev, () => invoke(ev, mock.target, args, loc, vk));
    }
  }
  if (target.kind === 'function') {
    const v = callFunction(ev, target.path, args);
    return v !== undefined && vk(v);
  }
  const def = ev.program.builtins.get(target.name);
  if (!def) {
    return false;
  }
  if (def.unsupported) {
    throw new RegoEvalError('eval_builtin_error', `${def.name}: built-in not supported`, loc);
  }
  try {
    if (def.relation) {
      for (const r of def.relation(args, ev.ctx)) {
        if (vk(r)) {
          return true;
        }
      }
      return false;
    }
    const r = def.fn(args, ev.ctx);
    return r !== undefined && vk(r);
  } catch (e) {
    if (e instanceof BuiltinError) {
      if (ev.strict) {
        throw new RegoEvalError(e.code, `${def.name}: ${e.message}`, loc);
      }
      return false;
    }
    if (e instanceof RangeError && !ev.strict) {
      return false;
    }
    throw e;
  }
}

function withoutMocks(ev: Evaluator, fn: () => boolean): boolean {
  // A replacement runs without any mocks: a mock never calls another mock (OPA's semantics).
  const mocks = ev.state.mocks;
  ev.state.mocks = new Map();
  try {
    return fn();
  } finally {
    ev.state.mocks = mocks;
  }
}

/** Calls a user function: all matching definitions must agree; `else` chains apply per definition. */
export function callFunction(ev: Evaluator, path: string[], args: Value[]): Value | undefined {
  const key = path.join('.');
  // Memoise only calls with scalar arguments: keys for composites would cost as much as the call.
  const memoKey = args.every((a) => a === null || typeof a !== 'object')
    ? key + '(' + args.map(canonical).join(',')
    : undefined;
  const memo = memoKey === undefined ? undefined : ev.state.fnMemo?.get(memoKey);
  if (memo !== undefined) {
    return memo === UNDEF ? undefined : memo;
  }
  const rules = ev.program.functions.get(key) ?? [];
  let result: Value | undefined;
  for (const rule of rules) {
    for (let r: CompiledRule | undefined = rule; r; r = r.elseRule) {
      const v = functionValue(ev, r, rule.nslots, args);
      if (v !== undefined) {
        if (result !== undefined && !valuesEqual(result, v)) {
          throw conflict('functions must not produce multiple outputs for same inputs', r.loc);
        }
        result = v;
        break;
      }
    }
  }
  if (result === undefined) {
    const node = findNode(ev, path);
    const d = node?.defaultRule;
    if (d?.value) {
      // The body holds the hoisted value of a comprehension default (`default f(_) := [x | …]`).
      const df = new Array<Value | undefined>(d.nslots);
      ev.body(d.body, 0, df, () => ev.term(d.value!, df, (v) => ((result = v), true)));
    }
  }
  if (memoKey !== undefined) {
    ev.state.fnMemo ??= new Map();
    ev.state.fnMemo.set(memoKey, result === undefined ? UNDEF : result);
  }
  return result;
}

function findNode(ev: Evaluator, path: string[]): import('../compiler/types').DocNode | undefined {
  let node: import('../compiler/types').DocNode | undefined = ev.program.root;
  for (const p of path) {
    node = node?.children.get(p);
  }
  return node;
}

function functionValue(
  ev: Evaluator,
  r: CompiledRule,
  nslots: number,
  args: Value[],
): Value | undefined {
  const params = r.args ?? [];
  if (params.length !== args.length) {
    return undefined;
  }
  const f: Frame = new Array<Value | undefined>(Math.max(nslots, r.nslots));
  let value: Value | undefined;
  const bindArgs = (i: number): boolean => {
    if (i === params.length) {
      return ev.body(r.body, 0, f, () =>
        ev.term(r.value!, f, (v) => {
          if (value !== undefined && !valuesEqual(value, v)) {
            throw conflict('functions must not produce multiple outputs for same inputs', r.loc);
          }
          value = v;
          return r.constValue;
        }),
      );
    }
    return ev.unifyValue(params[i], args[i], f, () => bindArgs(i + 1));
  };
  bindArgs(0);
  return value;
}
