import { Expr, Term } from '../ast/ast';
import { Value } from '../values/value';
import { ENUM, direct } from './direct';
import type { Evaluator } from './evaluator';
import { Frame, K } from './state';

/** `some [k,] v in domain` with fresh variables, as the body's fast path runs it. */
export function someIn(
  ev: Evaluator,
  body: Expr[],
  i: number,
  vslot: number,
  kslot: number,
  domain: Term,
  f: Frame,
  k: K,
): boolean {
  ev.tick();
  const d = direct(ev, domain, f);
  if (d === ENUM) {
    return ev.term(domain, f, (coll) => loopIn(ev, coll, body, i, vslot, kslot, f, k));
  }
  return d !== undefined && loopIn(ev, d, body, i, vslot, kslot, f, k);
}

function loopIn(
  ev: Evaluator,
  coll: Value,
  body: Expr[],
  i: number,
  vslot: number,
  kslot: number,
  f: Frame,
  k: K,
): boolean {
  if (kslot < 0 && Array.isArray(coll)) {
    // Hot path: `some x in array` without a continuation per element.
    for (let n = 0; n < coll.length; n++) {
      ev.tick();
      f[vslot] = coll[n];
      const r = ev.body(body, i + 1, f, k);
      f[vslot] = undefined;
      if (r) {
        return true;
      }
    }
    return false;
  }
  return ev.iterate(coll, (key, val) => {
    f[vslot] = val;
    if (kslot >= 0) {
      f[kslot] = key;
    }
    const r = ev.body(body, i + 1, f, k);
    f[vslot] = undefined;
    if (kslot >= 0) {
      f[kslot] = undefined;
    }
    return r;
  });
}
