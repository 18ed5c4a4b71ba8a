import { RefTerm, Term } from '../ast/ast';
import { RegoObject, Value } from '../values/value';
import { walkData } from './docs';
import type { Evaluator } from './evaluator';
import { lookup } from './lookup';
import { Frame, VK } from './state';

/** Enumerates the values of a reference: into `data`, `input`, a local or any other term. */
export function evalRef(ev: Evaluator, t: RefTerm, f: Frame, vk: VK): boolean {
  const head = t.terms[0];
  if (head.type === 'var') {
    if (head.name === 'data') {
      return walkData(ev, ev.program.root, ev.data, t.terms, 1, f, vk);
    }
    if (head.name === 'input') {
      const inp = ev.state.input;
      return inp !== undefined && walkPath(ev, inp, t.terms, 1, f, vk);
    }
    const v = f[head.slot];
    return v !== undefined && walkPath(ev, v, t.terms, 1, f, vk);
  }
  return ev.term(head, f, (v) => walkPath(ev, v, t.terms, 1, f, vk));
}

/**
 * Follows the remaining path elements of a reference through a value, enumerating where an
 * element is unbound; `dataKeys` reads a number key of a base-data object as its string.
 */
export function walkPath(
  ev: Evaluator,
  v: Value,
  path: Term[],
  i: number,
  f: Frame,
  vk: VK,
  dataKeys = false,
): boolean {
  if (i === path.length) {
    return vk(v);
  }
  const p = path[i];
  if (p.type === 'var' && f[p.slot] === undefined) {
    return ev.iterate(v, (key, val) =>
      ev.bindVar(p, key, f, () => walkPath(ev, val, path, i + 1, f, vk, dataKeys)),
    );
  }
  if ((p.type === 'array' || p.type === 'object') && ev.hasUnbound(p, f)) {
    return ev.iterate(v, (key, val) =>
      ev.unifyValue(p, key, f, () => walkPath(ev, val, path, i + 1, f, vk)),
    );
  }
  return ev.term(p, f, (key) => {
    const next =
      dataKeys && typeof key === 'number' && v instanceof RegoObject
        ? v.get(String(key))
        : lookup(v, key);
    return next !== undefined && walkPath(ev, next, path, i + 1, f, vk, dataKeys);
  });
}
