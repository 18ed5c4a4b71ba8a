import { RegoEvalError } from '../errors';
import { Location } from '../ast/ast';
import { RegoObject, RegoSet, Value, canonical, valuesEqual } from '../values/value';

type Entry =
  { k: 'obj'; m: Map<string, [Value, Entry]> } | { k: 'leaf'; v: Value } | { k: 'set'; s: RegoSet };

/** Builds a virtual document from rule outputs at paths, raising OPA's conflict errors. */
export class DocBuilder {
  private root: Entry | undefined;

  constructor(initial?: 'set' | 'obj') {
    if (initial === 'set') {
      this.root = { k: 'set', s: new RegoSet() };
    } else if (initial === 'obj') {
      this.root = { k: 'obj', m: new Map() };
    }
  }

  /** A single-value rule output at `path`. */
  leaf(path: Value[], v: Value, loc: Location): void {
    if (path.length === 0) {
      if (this.root === undefined) {
        this.root = { k: 'leaf', v };
      } else if (this.root.k !== 'leaf' || !valuesEqual(this.root.v, v)) {
        throw conflict('complete rules must not produce multiple outputs', loc);
      }
      return;
    }
    const parent = this.descend(path, loc);
    const key = path[path.length - 1];
    const ck = canonical(key);
    const cur = parent.get(ck);
    if (cur === undefined) {
      parent.set(ck, [key, { k: 'leaf', v }]);
    } else if (cur[1].k !== 'leaf' || !valuesEqual(cur[1].v, v)) {
      throw conflict('object keys must be unique', loc);
    }
  }

  /** A multi-value rule element at `path`. */
  element(path: Value[], v: Value, loc: Location): void {
    if (path.length === 0) {
      this.root ??= { k: 'set', s: new RegoSet() };
      if (this.root.k !== 'set') {
        throw conflict('object keys must be unique', loc);
      }
      this.root.s.add(v);
      return;
    }
    const parent = this.descend(path, loc);
    const key = path[path.length - 1];
    const ck = canonical(key);
    let cur = parent.get(ck);
    if (cur === undefined) {
      cur = [key, { k: 'set', s: new RegoSet() }];
      parent.set(ck, cur);
    }
    if (cur[1].k !== 'set') {
      throw conflict('object keys must be unique', loc);
    }
    cur[1].s.add(v);
  }

  /** Merges the document of a child node under `key`. */
  merge(key: string, v: Value, loc: Location): void {
    this.root ??= { k: 'obj', m: new Map() };
    if (this.root.k !== 'obj') {
      throw conflict('object keys must be unique', loc);
    }
    mergeInto(this.root.m, key, v, loc);
  }

  result(): Value | undefined {
    return this.root === undefined ? undefined : finish(this.root);
  }

  private descend(path: Value[], loc: Location): Map<string, [Value, Entry]> {
    this.root ??= { k: 'obj', m: new Map() };
    let e: Entry = this.root;
    for (let i = 0; i < path.length - 1; i++) {
      if (e.k !== 'obj') {
        throw conflict('object keys must be unique', loc);
      }
      const ck = canonical(path[i]);
      let next = e.m.get(ck);
      if (!next) {
        next = [path[i], { k: 'obj', m: new Map() }];
        e.m.set(ck, next);
      }
      e = next[1];
    }
    if (e.k !== 'obj') {
      throw conflict('object keys must be unique', loc);
    }
    return e.m;
  }
}

function mergeInto(m: Map<string, [Value, Entry]>, key: Value, v: Value, loc: Location): void {
  const ck = canonical(key);
  const cur = m.get(ck);
  if (!cur) {
    m.set(ck, [key, { k: 'leaf', v }]);
    return;
  }
  const e = cur[1];
  if (e.k === 'obj' && v instanceof RegoObject) {
    for (const [k2, v2] of v.entries()) {
      mergeInto(e.m, k2, v2, loc);
    }
  } else if (e.k === 'set' && v instanceof RegoSet) {
    v.values().forEach((x) => e.s.add(x));
  } else if (e.k !== 'leaf' || !valuesEqual(e.v, v)) {
    throw conflict('object keys must be unique', loc);
  }
}

function finish(e: Entry): Value {
  switch (e.k) {
    case 'leaf':
      return e.v;
    case 'set':
      return e.s;
    case 'obj': {
      const o = new RegoObject();
      for (const [k, x] of e.m.values()) {
        o.set(k, finish(x));
      }
      return o;
    }
  }
}

export function conflict(msg: string, loc: Location): RegoEvalError {
  return new RegoEvalError('eval_conflict_error', msg, loc);
}
