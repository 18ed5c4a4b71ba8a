import { compareValues } from '../../values/order';
import { Value } from '../../values/value';

/** Static types of Rego terms, as OPA's `types` package defines them. */
export type Type =
  | { kind: 'null' }
  | { kind: 'boolean' }
  | { kind: 'number' }
  | { kind: 'string' }
  | ArrayType
  | ObjectType
  | SetType
  | AnyType
  | FunctionType;

export interface ArrayType {
  kind: 'array';
  static: (Type | undefined)[];
  dynamic?: Type;
}

export interface StaticProperty {
  key: Value;
  value: Type | undefined;
}

export interface ObjectType {
  kind: 'object';
  /** Sorted by key. */
  static: StaticProperty[];
  dynamic?: { key: Type | undefined; value: Type | undefined };
}

export interface SetType {
  kind: 'set';
  of: Type | undefined;
}

export interface AnyType {
  kind: 'any';
  /** Sorted by `compareTypes`, without duplicates; empty means every type. */
  of: Type[];
}

export interface FunctionType {
  kind: 'function';
  args: (Type | undefined)[];
  result?: Type;
  variadic?: Type;
  /** Argument and result names of a built-in's declaration (printed in `want:`). */
  names?: (string | undefined)[];
  resultName?: string;
}

export type MaybeType = Type | undefined;

export const T_NULL: Type = { kind: 'null' };
export const T_BOOLEAN: Type = { kind: 'boolean' };
export const T_NUMBER: Type = { kind: 'number' };
export const T_STRING: Type = { kind: 'string' };
export const T_ANY: AnyType = { kind: 'any', of: [] };

export function arrayOf(stat: MaybeType[], dynamic?: Type): ArrayType {
  return { kind: 'array', static: stat, dynamic };
}

export function setOf(of: MaybeType): SetType {
  return { kind: 'set', of };
}

export function objectOf(
  stat: StaticProperty[],
  dynamic?: { key: MaybeType; value: MaybeType },
): ObjectType {
  return { kind: 'object', static: [...stat].sort((a, b) => compareValues(a.key, b.key)), dynamic };
}

export function anyOf(...of: Type[]): AnyType {
  let out: Type[] = [];
  for (const x of of) {
    out = mergeIntoAny(out, x);
  }
  return { kind: 'any', of: out };
}

function mergeIntoAny(list: Type[], x: Type): Type[] {
  if (list.some((y) => compareTypes(y, x) === 0)) {
    return list;
  }
  return [...list, x].sort(compareTypes);
}

const ORDER: Record<Type['kind'], number> = {
  null: 0,
  boolean: 1,
  number: 2,
  string: 3,
  array: 4,
  object: 5,
  set: 6,
  any: 7,
  function: 8,
};

/** OPA's `types.Compare`. */
export function compareTypes(a: MaybeType, b: MaybeType): number {
  const x = a ? ORDER[a.kind] : -1;
  const y = b ? ORDER[b.kind] : -1;
  if (x !== y) {
    return x > y ? 1 : -1;
  }
  if (!a || !b) {
    return 0;
  }
  switch (a.kind) {
    case 'null':
    case 'boolean':
    case 'number':
    case 'string':
      return 0;
    case 'array': {
      const o = b as ArrayType;
      if (a.dynamic && !o.dynamic) {
        return 1;
      }
      if (o.dynamic && !a.dynamic) {
        return -1;
      }
      if (a.dynamic && o.dynamic) {
        const c = compareTypes(a.dynamic, o.dynamic);
        if (c !== 0) {
          return c;
        }
      }
      return compareSlices(a.static, o.static);
    }
    case 'object': {
      const o = b as ObjectType;
      if (a.dynamic && !o.dynamic) {
        return 1;
      }
      if (o.dynamic && !a.dynamic) {
        return -1;
      }
      if (a.dynamic && o.dynamic) {
        const c =
          compareTypes(a.dynamic.key, o.dynamic.key) ||
          compareTypes(a.dynamic.value, o.dynamic.value);
        if (c !== 0) {
          return c;
        }
      }
      const n = Math.min(a.static.length, o.static.length);
      for (let i = 0; i < n; i++) {
        const c =
          compareValues(a.static[i].key, o.static[i].key) ||
          compareTypes(a.static[i].value, o.static[i].value);
        if (c !== 0) {
          return c;
        }
      }
      return Math.sign(a.static.length - o.static.length);
    }
    case 'set':
      return compareTypes(a.of, (b as SetType).of);
    case 'any':
      return compareSlices(a.of, (b as AnyType).of);
    case 'function': {
      const o = b as FunctionType;
      if (a.args.length !== o.args.length) {
        return a.args.length < o.args.length ? -1 : 1;
      }
      return (
        compareSlices(a.args, o.args) ||
        compareTypes(a.result, o.result) ||
        compareTypes(a.variadic, o.variadic)
      );
    }
  }
}

function compareSlices(a: MaybeType[], b: MaybeType[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareTypes(a[i], b[i]);
    if (c !== 0) {
      return c;
    }
  }
  return Math.sign(a.length - b.length);
}

export function isAnyAll(t: MaybeType): boolean {
  return t?.kind === 'any' && t.of.length === 0;
}

/** OPA's `types.Or`: the union of two types (a superset is returned unchanged). */
export function or(a: MaybeType, b: MaybeType): MaybeType {
  if (!a) {
    return b;
  }
  if (!b) {
    return a;
  }
  if (a.kind === 'function' && b.kind === 'function') {
    return unionFunctions(a, b);
  }
  if (a.kind === 'function' || b.kind === 'function') {
    return undefined;
  }
  if (a.kind === 'any') {
    return mergeAny(a, b);
  }
  if (b.kind === 'any') {
    return mergeAny(b, a);
  }
  if (compareTypes(a, b) === 0) {
    return a;
  }
  return { kind: 'any', of: [a, b].sort(compareTypes) };
}

function mergeAny(a: AnyType, b: Type): AnyType {
  if (b.kind === 'any') {
    if (a.of.length === 0) {
      return a;
    }
    if (b.of.length === 0) {
      return b;
    }
    let out = a.of;
    for (const x of b.of) {
      out = mergeIntoAny(out, x);
    }
    return { kind: 'any', of: out };
  }
  if (anyContains(a, b)) {
    return a;
  }
  return { kind: 'any', of: mergeIntoAny(a.of, b) };
}

export function anyContains(a: AnyType, b: MaybeType): boolean {
  if (b?.kind === 'function') {
    return false;
  }
  return a.of.length === 0 || a.of.some((x) => compareTypes(x, b) === 0);
}

/** OPA's `types.Contains`: `a` is a superset of or equal to `b`. */
export function contains(a: MaybeType, b: MaybeType): boolean {
  if (a?.kind === 'any') {
    return anyContains(a, b);
  }
  return compareTypes(a, b) === 0;
}

function unionFunctions(a: FunctionType, b: FunctionType): FunctionType | undefined {
  if (a.args.length !== b.args.length || !a.variadic !== !b.variadic) {
    return undefined;
  }
  return {
    kind: 'function',
    args: a.args.map((x, i) => or(x, b.args[i])),
    result: or(a.result, b.result),
    variadic: or(a.variadic, b.variadic),
  };
}
