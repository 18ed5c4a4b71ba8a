import { RegoObject, RegoSet, Value } from '../values/value';

/** `v[key]` for arrays, objects and sets. */
export function lookup(v: Value, key: Value): Value | undefined {
  if (Array.isArray(v)) {
    return typeof key === 'number' && Number.isInteger(key) && key >= 0 && key < v.length
      ? v[key]
      : undefined;
  }
  if (v instanceof RegoObject) {
    return v.get(key);
  }
  if (v instanceof RegoSet) {
    return v.has(key) ? key : undefined;
  }
  return undefined;
}
