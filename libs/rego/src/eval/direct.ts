import { CallTerm, DataPrefix, RefTerm, Term } from '../ast/ast';
import { BuiltinError } from '../builtins/types';
import { RegoEvalError } from '../errors';
import { RegoObject, RegoSet, Value, valuesEqual } from '../values/value';
import { callFunction } from './calls';
import { nodeDoc } from './docs';
import type { Evaluator } from './evaluator';
import { lookup } from './lookup';
import { Frame } from './state';

/** Marker: the term may have several values (or needs `with` handling); use the general path. */
export const ENUM = Symbol('enumerate');
export type Direct = Value | undefined | typeof ENUM;

/** Returns ENUM when it cannot. */
export function direct(ev: Evaluator, t: Term, f: Frame): Direct {
  switch (t.type) {
    case 'scalar':
      return t.value;
    case 'var': {
      const v = f[t.slot];
      return v === undefined ? ENUM : v;
    }
    case 'ref':
      return directRef(ev, t, f);
    case 'call':
      return directCall(ev, t, f);
    case 'array': {
      const out: Value[] = [];
      for (const x of t.items) {
        const v = direct(ev, x, f);
        if (v === undefined || v === ENUM) {
          return v;
        }
        out.push(v);
      }
      return out;
    }
    case 'set': {
      const out = new RegoSet();
      for (const x of t.items) {
        const v = direct(ev, x, f);
        if (v === undefined || v === ENUM) {
          return v;
        }
        out.add(v);
      }
      return out;
    }
    case 'object': {
      const out = new RegoObject();
      for (const [k, x] of t.pairs) {
        const kv = direct(ev, k, f);
        if (kv === undefined || kv === ENUM) {
          return kv;
        }
        const v = direct(ev, x, f);
        if (v === undefined || v === ENUM) {
          return v;
        }
        out.set(kv, v);
      }
      return out;
    }
    case 'arraycomp':
    case 'setcomp':
    case 'objectcomp': {
      let out: Value | undefined;
      ev.term(t, f, (v) => ((out = v), true));
      return out;
    }
  }
}

function directRef(ev: Evaluator, t: RefTerm, f: Frame): Direct {
  const head = t.terms[0];
  let cur: Value | undefined;
  let i = 1;
  if (head.type === 'var' && head.name === 'data') {
    if (ev.state.overrides.length > 0) {
      return ENUM;
    }
    const pre = (t.dataPrefix ??= dataPrefix(ev, t));
    if (pre.pureBase) {
      return walkDirect(ev, pre.base, t.terms, pre.next, f, true);
    }
    let node = pre.node;
    let base: Value | undefined = pre.base;
    for (i = pre.next; i < t.terms.length; i++) {
      if (node.rules.length > 0 || node.defaultRule || !node.hasRules) {
        break;
      }
      const pt = t.terms[i];
      const k = pt.type === 'scalar' ? pt.value : direct(ev, pt, f);
      if (k === undefined || k === ENUM) {
        return k;
      }
      const key = typeof k === 'number' && Number.isInteger(k) ? String(k) : k;
      if (typeof key !== 'string') {
        return undefined;
      }
      base = base instanceof RegoObject ? base.get(key) : undefined;
      const child = node.children.get(key);
      if (!child) {
        cur = base;
        i++;
        return walkDirect(ev, cur, t.terms, i, f, true);
      }
      node = child;
    }
    cur = nodeDoc(ev, node, base);
    return walkDirect(ev, cur, t.terms, i, f, !node.hasRules);
  }
  if (head.type === 'var' && head.name === 'input') {
    cur = ev.state.input;
  } else if (head.type === 'var') {
    const h = f[head.slot];
    if (h === undefined) {
      return ENUM;
    }
    cur = h;
  } else {
    const h = direct(ev, head, f);
    if (h === ENUM) {
      return ENUM;
    }
    cur = h;
  }
  return walkDirect(ev, cur, t.terms, i, f, false);
}

/** Follows the constant string elements of a `data` ref once; the result is cached on the ref. */
function dataPrefix(ev: Evaluator, t: RefTerm): DataPrefix {
  let node = ev.program.root;
  let base: Value | undefined = ev.data;
  for (let i = 1; i < t.terms.length; i++) {
    const pt = t.terms[i];
    if (
      node.rules.length > 0 ||
      node.defaultRule ||
      !node.hasRules ||
      pt.type !== 'scalar' ||
      typeof pt.value !== 'string'
    ) {
      return { node, base, next: i, pureBase: false };
    }
    base = base instanceof RegoObject ? base.get(pt.value) : undefined;
    const child = node.children.get(pt.value);
    if (!child) {
      return { node, base, next: i + 1, pureBase: true };
    }
    node = child;
  }
  return { node, base, next: t.terms.length, pureBase: false };
}

function walkDirect(
  ev: Evaluator,
  start: Value | undefined,
  path: Term[],
  from: number,
  f: Frame,
  dataKeys: boolean,
): Direct {
  let cur = start;
  for (let i = from; i < path.length; i++) {
    if (cur === undefined) {
      return undefined;
    }
    const pt = path[i];
    const k =
      pt.type === 'scalar'
        ? pt.value
        : pt.type === 'var'
          ? (f[pt.slot] ?? ENUM)
          : direct(ev, pt, f);
    if (k === undefined || k === ENUM) {
      return k;
    }
    if (typeof k === 'string' && cur instanceof RegoObject) {
      cur = cur.get(k);
      continue;
    }
    cur =
      dataKeys && typeof k === 'number' && cur instanceof RegoObject
        ? cur.get(String(k))
        : lookup(cur, k);
  }
  return cur;
}

function directCall(ev: Evaluator, t: CallTerm, f: Frame): Direct {
  const target = t.target;
  if (!target || ev.state.mocks.size > 0) {
    return ENUM;
  }
  if (target.kind === 'builtin' && target.name === 'equal' && t.args.length === 2) {
    const a = direct(ev, t.args[0], f);
    if (a === undefined || a === ENUM) {
      return a;
    }
    const b = direct(ev, t.args[1], f);
    if (b === undefined || b === ENUM) {
      return b;
    }
    return a === b || valuesEqual(a, b);
  }
  const args: Value[] = [];
  for (const a of t.args) {
    const v = direct(ev, a, f);
    if (v === undefined || v === ENUM) {
      return v;
    }
    args.push(v);
  }
  if (target.kind === 'function') {
    if (ev.arity(t) !== args.length) {
      return ENUM;
    }
    return callFunction(ev, target.path, args);
  }
  if (t.builtinCache === undefined) {
    const d = ev.program.builtins.get(target.name);
    t.builtinCache = !d || d.relation || d.unsupported ? null : d;
  }
  const def = t.builtinCache;
  if (def === null || args.length !== def.arity) {
    return ENUM;
  }
  try {
    return def.fn(args, ev.ctx);
  } catch (e) {
    if (e instanceof BuiltinError) {
      if (ev.strict) {
        throw new RegoEvalError(e.code, `${def.name}: ${e.message}`, t.loc);
      }
      return undefined;
    }
    if (e instanceof RangeError && !ev.strict) {
      return undefined;
    }
    throw e;
  }
}
