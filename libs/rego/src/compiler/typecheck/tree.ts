import { Value } from '../../values/value';
import { TypeNode } from './env';
import { MaybeType, ObjectType, objectOf, or, Type } from './types';
import { typeOfValue } from './type-select';

/** OPA's `typeTreeNode.Put`: sets the type at a path, replacing what was there. */
export function putType(root: TypeNode, path: Value[], t: MaybeType): void {
  let cur = root;
  for (const k of path) {
    cur = cur.ensure(k);
  }
  cur.value = t;
}

/** OPA's `typeTreeNode.Insert`. */
export function insertType(root: TypeNode, path: Value[], t: Type): void {
  let cur = root;
  path.forEach((k, i) => {
    const existed = cur.child(k);
    cur = cur.ensure(k);
    if (existed && cur.value?.kind === 'object' && i + 1 < path.length) {
      cur.value = insertIntoObject(cur.value, path.slice(i + 1), t);
    }
  });
  cur.value = mergeTypes(cur.value, t);
  if (t.kind === 'object' && cur.children.size > 0) {
    for (const [p, leaf] of leafs(cur)) {
      if (cur.value?.kind === 'object') {
        cur.value = insertIntoObject(cur.value, p, leaf);
      }
    }
  }
}

function leafs(node: TypeNode): [Value[], MaybeType][] {
  const out: [Value[], MaybeType][] = [];
  const walk = (n: TypeNode, path: Value[]): void => {
    const p = [...path, n.key as Value];
    if (n.isLeaf) {
      out.push([p, n.value]);
      return;
    }
    n.children.forEach((c) => walk(c, p));
  };
  node.children.forEach((c) => walk(c, []));
  return out;
}

/** OPA's `mergeTypes`: sets join their element types, dynamic objects their properties. */
export function mergeTypes(a: MaybeType, b: MaybeType): MaybeType {
  if (!a) {
    return b;
  }
  if (!b) {
    return a;
  }
  if (a.kind === 'object') {
    if (b.kind === 'object' && a.static.length === 0 && b.static.length === 0) {
      const da = a.dynamic;
      const db = b.dynamic;
      return objectOf([], {
        key: or(da?.key, db?.key),
        value: mergeTypes(da?.value, db?.value),
      });
    }
    if (b.kind === 'any' && a.static.length === 0) {
      for (const x of b.of) {
        if (x.kind === 'object' && x.static.length === 0) {
          // OPA widens the object inside the union in place and returns the union.
          x.dynamic = {
            key: or(x.dynamic?.key, a.dynamic?.key),
            value: or(x.dynamic?.value, a.dynamic?.value),
          };
          return b;
        }
      }
    }
  } else if (a.kind === 'set' && b.kind === 'set') {
    return { kind: 'set', of: or(a.of, b.of) };
  } else if (a.kind === 'any' && b.kind !== 'any') {
    return mergeTypes(b, a);
  }
  return or(a, b);
}

function insertIntoObject(o: ObjectType, path: Value[], t: MaybeType): ObjectType {
  if (path.length === 0) {
    return o;
  }
  const key = typeOfValue(path[0]);
  const value = path.length === 1 ? t : insertIntoObject(objectOf([]), path.slice(1), t);
  const dynamic = o.dynamic
    ? { key: or(o.dynamic.key, key), value: or(o.dynamic.value, value) }
    : { key, value };
  return objectOf(o.static, dynamic);
}
