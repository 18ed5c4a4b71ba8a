import { RegoObject, RegoSet, Value, typeName, valuesEqual } from '../values/value';
import { BuiltinDef } from './types';
import { arr, builtinErr, def, elems, isNum, num, obj, oneOf, typeErr } from './helpers';

function union(a: RegoObject, b: RegoObject): RegoObject {
  const out = RegoObject.from(a.entries());
  for (const [k, v] of b.entries()) {
    const cur = out.get(k);
    out.set(k, cur instanceof RegoObject && v instanceof RegoObject ? union(cur, v) : v);
  }
  return out;
}

function keysOf(v: Value, pos: number): Value[] {
  if (v instanceof RegoObject) {
    return v.keys();
  }
  if (Array.isArray(v) || v instanceof RegoSet) {
    return Array.isArray(v) ? v : v.values();
  }
  throw oneOf(pos, 'object, set, array', v);
}

function objectSubset(sup: RegoObject, sub: RegoObject): boolean {
  return sub.entries().every(([k, v]) => {
    const s = sup.get(k);
    return s !== undefined && subset(s, v, false);
  });
}

function arraySubset(sup: Value[], sub: Value[]): boolean {
  if (sub.length > sup.length) {
    return false;
  }
  for (let i = 0; i + sub.length <= sup.length; i++) {
    if (sub.every((x, j) => valuesEqual(sup[i + j], x))) {
      return true;
    }
  }
  return false;
}

function subset(sup: Value, sub: Value, top: boolean): boolean {
  if (!top && valuesEqual(sup, sub)) {
    return true;
  }
  if (sup instanceof RegoObject && sub instanceof RegoObject) {
    return objectSubset(sup, sub);
  }
  if (sup instanceof RegoSet && sub instanceof RegoSet) {
    return sub.values().every((x) => sup.has(x));
  }
  if (Array.isArray(sup) && Array.isArray(sub)) {
    return arraySubset(sup, sub);
  }
  if (Array.isArray(sup) && sub instanceof RegoSet) {
    return sub.values().every((x) => sup.some((y) => valuesEqual(x, y)));
  }
  if (top) {
    throw builtinErr('both arguments object.subset must be of the same type or array and set');
  }
  return false;
}

function getPath(o: Value, path: Value[]): Value | undefined {
  let cur: Value | undefined = o;
  for (const p of path) {
    if (cur instanceof RegoObject) {
      cur = cur.get(p);
    } else if (Array.isArray(cur)) {
      cur =
        typeof p === 'number' && Number.isInteger(p) && p >= 0 && p < cur.length
          ? cur[p]
          : undefined;
    } else if (cur instanceof RegoSet) {
      cur = cur.has(p) ? p : undefined;
    } else {
      return undefined;
    }
    if (cur === undefined) {
      return undefined;
    }
  }
  return cur;
}

type PathTree = Map<string, { key: Value; sub: PathTree | null }>;

/** Parses json.filter/json.remove paths into a tree (a null sub-tree means "whole value"). */
function pathTree(v: Value): PathTree {
  if (!Array.isArray(v) && !(v instanceof RegoSet)) {
    throw typeErr(2, 'one of {set, array}', v);
  }
  const tree: PathTree = new Map();
  for (const p of Array.isArray(v) ? v : v.values()) {
    let segs: Value[];
    if (typeof p === 'string') {
      segs = p
        .replace(/^\//, '')
        .split('/')
        .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
    } else if (Array.isArray(p)) {
      segs = p;
    } else {
      throw typeErr(2, 'one of {set, array} containing string paths or array of path segments', p);
    }
    let node = tree;
    segs.forEach((s, i) => {
      const k = typeof s === 'string' ? s : JSON.stringify(s);
      let e = node.get(k);
      if (!e) {
        e = { key: s, sub: new Map() };
        node.set(k, e);
      }
      if (i === segs.length - 1) {
        e.sub = null;
      }
      if (e.sub === null) {
        return;
      }
      node = e.sub;
    });
  }
  return tree;
}

function segKey(k: Value): string {
  return typeof k === 'string' ? k : JSON.stringify(k);
}

function filter(v: Value, tree: PathTree): Value {
  if (v instanceof RegoObject) {
    const out = new RegoObject();
    for (const [k, x] of v.entries()) {
      const e = tree.get(segKey(k));
      if (e) {
        out.set(k, e.sub === null ? x : filter(x, e.sub));
      }
    }
    return out;
  }
  if (Array.isArray(v)) {
    const out: Value[] = [];
    v.forEach((x, i) => {
      const e = tree.get(String(i));
      if (e) {
        out.push(e.sub === null ? x : filter(x, e.sub));
      }
    });
    return out;
  }
  if (v instanceof RegoSet) {
    return RegoSet.from(v.values().filter((x) => tree.has(segKey(x))));
  }
  return v;
}

function remove(v: Value, tree: PathTree): Value {
  if (v instanceof RegoObject) {
    const out = new RegoObject();
    for (const [k, x] of v.entries()) {
      const e = tree.get(segKey(k));
      if (!e) {
        out.set(k, x);
      } else if (e.sub !== null) {
        out.set(k, remove(x, e.sub));
      }
    }
    return out;
  }
  if (Array.isArray(v)) {
    const out: Value[] = [];
    v.forEach((x, i) => {
      const e = tree.get(String(i));
      if (!e) {
        out.push(x);
      } else if (e.sub !== null) {
        out.push(remove(x, e.sub));
      }
    });
    return out;
  }
  if (v instanceof RegoSet) {
    return RegoSet.from(v.values().filter((x) => !tree.get(segKey(x))));
  }
  return v;
}

export const OBJECT_BUILTINS: BuiltinDef[] = [
  def('object.get', 3, ([o, k, d]) => {
    const ob = obj(o, 1);
    if (Array.isArray(k)) {
      const hit = getPath(ob, k);
      return hit === undefined ? d : hit;
    }
    const hit = ob.get(k);
    return hit === undefined ? d : hit;
  }),
  def('object.keys', 1, ([o]) => RegoSet.from(obj(o, 1).keys())),
  def('object.remove', 2, ([o, ks]) => {
    const ob = obj(o, 1);
    const drop = RegoSet.from(keysOf(ks, 2));
    return RegoObject.from(ob.entries().filter(([k]) => !drop.has(k)));
  }),
  def('object.filter', 2, ([o, ks]) => {
    const ob = obj(o, 1);
    const keep = RegoSet.from(keysOf(ks, 2));
    return RegoObject.from(ob.entries().filter(([k]) => keep.has(k)));
  }),
  def('object.union', 2, ([a, b]) => union(obj(a, 1), obj(b, 2))),
  def('object.union_n', 1, ([xs]) =>
    arr(xs, 1).reduce<RegoObject>((acc, x) => union(acc, obj(x, 1)), new RegoObject()),
  ),
  def('object.subset', 2, ([a, b]) => subset(a, b, true)),
  def('json.filter', 2, ([o, ps]) => filter(obj(o, 1), pathTree(ps))),
  def('json.remove', 2, ([o, ps]) => remove(obj(o, 1), pathTree(ps))),
  def('array.concat', 2, ([a, b]) => [...arr(a, 1), ...arr(b, 2)]),
  def('array.slice', 3, ([a, s, e]) => {
    const xs = arr(a, 1);
    const start = Math.max(0, Math.floor(Number(num(s, 2))));
    const end = Math.min(xs.length, Math.floor(Number(num(e, 3))));
    return start >= end ? [] : xs.slice(start, end);
  }),
  def('array.reverse', 1, ([a]) => [...arr(a, 1)].reverse()),
  def('array.flatten', 1, ([a]) => arr(a, 1).flatMap((x) => (Array.isArray(x) ? x : [x]))),
  def('intersection', 1, ([s]) => {
    const sets = elems(s, 1, 'set').map((x) =>
      x instanceof RegoSet
        ? x
        : (() => {
            throw typeErr(1, 'set of sets', s);
          })(),
    );
    if (sets.length === 0) {
      return new RegoSet();
    }
    return RegoSet.from(sets[0].values().filter((v) => sets.every((x) => x.has(v))));
  }),
  def('union', 1, ([s]) => {
    const out = new RegoSet();
    for (const x of elems(s, 1, 'set')) {
      if (!(x instanceof RegoSet)) {
        throw typeErr(1, 'set of sets', s);
      }
      x.values().forEach((v) => out.add(v));
    }
    return out;
  }),
  def('type_name', 1, ([v]) => typeName(v)),
  def('is_number', 1, ([v]) => isNum(v)),
  def('is_string', 1, ([v]) => typeof v === 'string'),
  def('is_boolean', 1, ([v]) => typeof v === 'boolean'),
  def('is_array', 1, ([v]) => Array.isArray(v)),
  def('is_set', 1, ([v]) => v instanceof RegoSet),
  def('is_object', 1, ([v]) => v instanceof RegoObject),
  def('is_null', 1, ([v]) => v === null),
];
