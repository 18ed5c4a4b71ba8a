import { compareValues } from '../../values/order';
import { RegoObject, RegoSet, Value } from '../../values/value';
import {
  MaybeType,
  T_ANY,
  T_BOOLEAN,
  T_NULL,
  T_NUMBER,
  T_STRING,
  Type,
  anyContains,
  arrayOf,
  compareTypes,
  contains,
  objectOf,
  or,
  setOf,
} from './types';

// What OPA's `types` package derives from a type.

/** OPA's `types.TypeOf` for a constant key (as a static property key or a selector). */
export function typeOfValue(v: Value): Type {
  if (v === null) {
    return T_NULL;
  }
  switch (typeof v) {
    case 'boolean':
      return T_BOOLEAN;
    case 'string':
      return T_STRING;
    case 'number':
    case 'bigint':
      return T_NUMBER;
    case 'function':
    case 'object':
    case 'symbol':
    case 'undefined':
    default:
      break;
  }
  if (Array.isArray(v)) {
    return arrayOf(v.map(typeOfValue));
  }
  if (v instanceof RegoObject) {
    return objectOf(v.entries().map(([key, x]) => ({ key, value: typeOfValue(x) })));
  }
  if (v instanceof RegoSet) {
    // A set converts to a JSON array in OPA before typing.
    return arrayOf(v.values().map(typeOfValue));
  }
  return T_NUMBER;
}

/** OPA's `types.Select`: the type of member `x` (a constant) of `a`. */
export function select(a: MaybeType, x: Value): MaybeType {
  if (!a) {
    return undefined;
  }
  switch (a.kind) {
    case 'array': {
      if (typeof x !== 'bigint' && !(typeof x === 'number' && Number.isInteger(x))) {
        return undefined;
      }
      const pos = Number(x);
      if (pos < 0) {
        return undefined;
      }
      return pos < a.static.length ? a.static[pos] : a.dynamic;
    }
    case 'object': {
      const p = a.static.find((s) => compareValues(s.key, x) === 0);
      if (p) {
        return p.value;
      }
      if (a.dynamic && contains(a.dynamic.key, typeOfValue(x))) {
        return a.dynamic.value;
      }
      return undefined;
    }
    case 'set': {
      const t = typeOfValue(x);
      if (compareTypes(a.of, t) === 0) {
        return a.of;
      }
      if (a.of?.kind === 'any' && anyContains(a.of, t)) {
        return t;
      }
      return undefined;
    }
    case 'any': {
      if (a.of.length === 0) {
        return T_ANY;
      }
      let t: MaybeType;
      for (const y of a.of) {
        t = or(select(y, x), t);
      }
      return t;
    }
    case 'boolean':
    case 'function':
    case 'null':
    case 'number':
    case 'string':
    default:
      return undefined;
  }
}

/** OPA's `types.Keys`: the type of the keys that enumerate `a` (undefined: not enumerable). */
export function keysOf(a: MaybeType): MaybeType {
  if (!a) {
    return undefined;
  }
  switch (a.kind) {
    case 'array':
      return T_NUMBER;
    case 'object': {
      let t: MaybeType;
      for (const s of a.static) {
        t = or(t, typeOfValue(s.key));
      }
      return a.dynamic ? or(t, a.dynamic.key) : t;
    }
    case 'set':
      return a.of;
    case 'any': {
      if (a.of.length === 0) {
        return T_ANY;
      }
      let t: MaybeType;
      for (const y of a.of) {
        t = or(keysOf(y), t);
      }
      return t;
    }
    case 'boolean':
    case 'function':
    case 'null':
    case 'number':
    case 'string':
    default:
      return undefined;
  }
}

/** OPA's `types.Values`: the type of the values that enumerating `a` yields. */
export function valuesOf(a: MaybeType): MaybeType {
  if (!a) {
    return undefined;
  }
  switch (a.kind) {
    case 'array': {
      let t: MaybeType;
      for (const s of a.static) {
        t = or(t, s);
      }
      return or(t, a.dynamic);
    }
    case 'object': {
      let t: MaybeType;
      for (const s of a.static) {
        t = or(t, s.value);
      }
      return a.dynamic ? or(t, a.dynamic.value) : t;
    }
    case 'set':
      return a.of;
    case 'any': {
      if (a.of.length === 0) {
        return T_ANY;
      }
      let t: MaybeType;
      for (const y of a.of) {
        t = or(valuesOf(y), t);
      }
      return t;
    }
    case 'boolean':
    case 'function':
    case 'null':
    case 'number':
    case 'string':
    default:
      return undefined;
  }
}

/** OPA's `types.Nil`: the type is unknown somewhere. */
export function isNil(a: MaybeType): boolean {
  if (!a) {
    return true;
  }
  switch (a.kind) {
    case 'function':
      return a.args.some(isNil) || isNil(a.result);
    case 'array':
      return a.static.some(isNil) || (a.dynamic !== undefined && isNil(a.dynamic));
    case 'object':
      return (
        a.static.some((s) => isNil(s.value)) ||
        (a.dynamic !== undefined && (isNil(a.dynamic.key) || isNil(a.dynamic.value)))
      );
    case 'set':
      return isNil(a.of);
    case 'any':
    case 'boolean':
    case 'null':
    case 'number':
    case 'string':
    default:
      return false;
  }
}

/** The type with every unknown part (OPA's nil) made `any` (docs/decisions/rego.md E11). */
export function unknownAsAny(t: MaybeType): Type {
  if (!t) {
    return T_ANY;
  }
  if (t.kind === 'array') {
    return arrayOf(t.static.map(unknownAsAny), t.dynamic && unknownAsAny(t.dynamic));
  }
  if (t.kind === 'object') {
    return objectOf(
      t.static.map((p) => ({ key: p.key, value: unknownAsAny(p.value) })),
      t.dynamic && { key: unknownAsAny(t.dynamic.key), value: unknownAsAny(t.dynamic.value) },
    );
  }
  if (t.kind === 'set') {
    return setOf(unknownAsAny(t.of));
  }
  if (t.kind === 'function') {
    return { ...t, args: t.args.map(unknownAsAny), result: t.result && unknownAsAny(t.result) };
  }
  return t;
}
