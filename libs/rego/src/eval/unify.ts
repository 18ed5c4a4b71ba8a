import { Term } from '../ast/ast';
import { RegoObject, Value, valuesEqual } from '../values/value';
import type { Evaluator } from './evaluator';
import { Frame, K } from './state';

/** Unification of terms with terms and with values (binding unbound vars, undone on backtrack). */
export function unify(ev: Evaluator, a: Term, b: Term, f: Frame, k: K): boolean {
  if (a.type === 'var' && f[a.slot] === undefined) {
    return ev.term(b, f, (v) => ev.bindVar(a, v, f, k));
  }
  if (b.type === 'var' && f[b.slot] === undefined) {
    return ev.term(a, f, (v) => ev.bindVar(b, v, f, k));
  }
  if (a.type === 'array' && b.type === 'array') {
    return a.items.length === b.items.length && unifyPairs(ev, a.items, b.items, 0, f, k);
  }
  if (a.type === 'object' && b.type === 'object' && hasUnbound(a, f) && hasUnbound(b, f)) {
    return a.pairs.length === b.pairs.length && unifyObjects(ev, a.pairs, b.pairs, 0, f, k);
  }
  if (hasUnbound(a, f)) {
    return ev.term(b, f, (v) => unifyValue(ev, a, v, f, k));
  }
  return ev.term(a, f, (v) => unifyValue(ev, b, v, f, k));
}

function unifyObjects(
  ev: Evaluator,
  as: [Term, Term][],
  bs: [Term, Term][],
  i: number,
  f: Frame,
  k: K,
): boolean {
  if (i === as.length) {
    return k();
  }
  return ev.term(as[i][0], f, (key) => {
    for (const [bk, bv] of bs) {
      let match = false;
      ev.term(bk, f, (x) => (match = valuesEqual(x, key)));
      if (match) {
        return unify(ev, as[i][1], bv, f, () => unifyObjects(ev, as, bs, i + 1, f, k));
      }
    }
    return false;
  });
}

function unifyPairs(ev: Evaluator, as: Term[], bs: Term[], i: number, f: Frame, k: K): boolean {
  if (i === as.length) {
    return k();
  }
  return unify(ev, as[i], bs[i], f, () => unifyPairs(ev, as, bs, i + 1, f, k));
}

export function hasUnbound(t: Term, f: Frame): boolean {
  switch (t.type) {
    case 'var':
      return f[t.slot] === undefined;
    case 'array':
      return t.items.some((x) => hasUnbound(x, f));
    case 'object':
      return t.pairs.some(([, v]) => hasUnbound(v, f));
    case 'arraycomp':
    case 'call':
    case 'objectcomp':
    case 'ref':
    case 'scalar':
    case 'set':
    case 'setcomp':
    default:
      return false;
  }
}

export function unifyValue(ev: Evaluator, t: Term, v: Value, f: Frame, k: K): boolean {
  switch (t.type) {
    case 'var':
      return ev.bindVar(t, v, f, k);
    case 'scalar':
      return valuesEqual(t.value, v) && k();
    case 'array':
      return Array.isArray(v) && v.length === t.items.length && unifyItems(ev, t.items, v, 0, f, k);
    case 'object': {
      if (!(v instanceof RegoObject) || v.size !== t.pairs.length) {
        return false;
      }
      return unifyPairsObj(ev, t.pairs, v, 0, f, k);
    }
    case 'arraycomp':
    case 'call':
    case 'objectcomp':
    case 'ref':
    case 'set':
    case 'setcomp':
    default:
      return ev.term(t, f, (x) => valuesEqual(x, v) && k());
  }
}

function unifyItems(ev: Evaluator, ts: Term[], vs: Value[], i: number, f: Frame, k: K): boolean {
  if (i === ts.length) {
    return k();
  }
  return unifyValue(ev, ts[i], vs[i], f, () => unifyItems(ev, ts, vs, i + 1, f, k));
}

function unifyPairsObj(
  ev: Evaluator,
  pairs: [Term, Term][],
  o: RegoObject,
  i: number,
  f: Frame,
  k: K,
): boolean {
  if (i === pairs.length) {
    return k();
  }
  return ev.term(pairs[i][0], f, (key) => {
    const x = o.get(key);
    return (
      x !== undefined &&
      unifyValue(ev, pairs[i][1], x, f, () => unifyPairsObj(ev, pairs, o, i + 1, f, k))
    );
  });
}
