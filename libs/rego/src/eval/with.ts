import { Expr } from '../ast/ast';
import { RegoObject, Value } from '../values/value';
import type { Evaluator } from './evaluator';
import { EvalState, Frame, K, Mock } from './state';

/** Evaluates an expression under its `with` modifiers; the rest of the body runs without them. */
export function applyWiths(ev: Evaluator, e: Expr, f: Frame, k: K): boolean {
  const values: Value[] = [];
  for (const w of e.withs) {
    let val: Value | undefined;
    if (!w.resolved?.mock) {
      ev.term(w.value, f, (v) => ((val = v), true));
      if (val === undefined) {
        return false;
      }
    }
    values.push(val === undefined ? null : val);
  }
  const saved = ev.state;
  const next: EvalState = {
    input: saved.input,
    overrides: saved.overrides,
    mocks: saved.mocks,
    memo: new Map(),
    fnMemo: undefined,
  };
  e.withs.forEach((w, i) => {
    const r = w.resolved;
    if (!r) {
      return;
    }
    if (r.kind === 'input') {
      next.input = r.path.length === 0 ? values[i] : setPath(next.input, r.path, values[i]);
    } else if (r.kind === 'data') {
      next.overrides = [...next.overrides, { path: r.path, value: values[i] }];
    } else if (r.fnKey) {
      const mock: Mock = r.mock
        ? { kind: 'target', target: r.mock }
        : { kind: 'value', value: values[i] };
      next.mocks = new Map(next.mocks);
      next.mocks.set(r.fnKey, mock);
    }
  });
  const inner = { ...e, withs: [] };
  ev.state = next;
  try {
    const run = (): boolean => {
      ev.state = saved;
      try {
        return k();
      } finally {
        ev.state = next;
      }
    };
    return inner.negated
      ? ev.exprInner(inner, f, () => true)
        ? false
        : run()
      : ev.exprInner(inner, f, run);
  } finally {
    ev.state = saved;
  }
}

/** Returns a copy of `base` (an object, or nothing) with `value` set at `path`. */
export function setPath(base: Value | undefined, path: string[], value: Value): Value {
  if (path.length === 0) {
    return value;
  }
  const obj = new RegoObject();
  if (base instanceof RegoObject) {
    base.entries().forEach(([k, v]) => obj.set(k, v));
  }
  obj.set(path[0], setPath(obj.get(path[0]), path.slice(1), value));
  return obj;
}

export type OverrideHit =
  | { kind: 'none' }
  | { kind: 'replace'; value: Value | undefined }
  | { kind: 'below'; patch: (doc: Value | undefined) => Value | undefined };

/** How `with data…` overrides affect the document at `path`. */
export function dataOverride(ev: Evaluator, path: string[]): OverrideHit {
  let replaced: Value | undefined;
  let hit = false;
  const below: { path: string[]; value: Value }[] = [];
  for (const o of ev.state.overrides) {
    if (o.path.length <= path.length && o.path.every((p, i) => p === path[i])) {
      let v: Value | undefined = o.value;
      for (const p of path.slice(o.path.length)) {
        v = v instanceof RegoObject ? v.get(p) : undefined;
      }
      replaced = v;
      hit = true;
      below.length = 0;
    } else if (o.path.length > path.length && path.every((p, i) => p === o.path[i])) {
      below.push({ path: o.path.slice(path.length), value: o.value });
    }
  }
  if (below.length > 0) {
    return {
      kind: 'below',
      patch: (doc) =>
        below.reduce<Value | undefined>(
          (acc, o) => setPath(acc, o.path, o.value),
          hit ? replaced : doc,
        ),
    };
  }
  return hit ? { kind: 'replace', value: replaced } : { kind: 'none' };
}
