import { AnyNum, BigNum, compareAnyNum } from './decimal';
import { RegoObject, RegoSet, Value } from './value';

/** Canonical text of a value: equal values give equal text. */
export function canonical(v: Value): string {
  if (v === null) {
    return 'null';
  }
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      // Large integral doubles (JSON input) read as the equal bigint does.
      return Object.is(v, -0)
        ? '0'
        : Number.isInteger(v) && !Number.isSafeInteger(v)
          ? BigInt(v).toString()
          : String(v);
    case 'bigint':
      return v.toString();
    case 'string':
      return JSON.stringify(v);
    case 'function':
    case 'object':
    case 'symbol':
    case 'undefined':
    default:
      break;
  }
  if (Array.isArray(v)) {
    return '[' + v.map(canonical).join(',') + ']';
  }
  if (v instanceof BigNum) {
    return v.canonical();
  }
  if (v instanceof RegoSet) {
    return 's{' + v.values().map(canonical).join(',') + '}';
  }
  return (
    '{' +
    v
      .entries()
      .map(([k, x]) => canonical(k) + ':' + canonical(x))
      .join(',') +
    '}'
  );
}

const TYPE_RANK: Record<string, number> = {
  null: 0,
  boolean: 1,
  number: 2,
  string: 3,
  array: 4,
  object: 5,
  set: 6,
};

/** Rego type name of a value (as `type_name` reports it). */
export function typeName(v: Value): string {
  if (v === null) {
    return 'null';
  }
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'string';
    case 'function':
    case 'object':
    case 'symbol':
    case 'undefined':
    default:
      break;
  }
  if (Array.isArray(v)) {
    return 'array';
  }
  return v instanceof RegoSet ? 'set' : v instanceof BigNum ? 'number' : 'object';
}

/** OPA's total order: null < boolean < number < string < array < object < set. */
export function compareValues(a: Value, b: Value): number {
  const ta = typeName(a);
  const tb = typeName(b);
  if (ta !== tb) {
    return TYPE_RANK[ta] - TYPE_RANK[tb];
  }
  switch (ta) {
    case 'null':
      return 0;
    case 'boolean':
      return a === b ? 0 : a ? 1 : -1;
    case 'number':
      return compareNumbers(a as AnyNum, b as AnyNum);
    case 'string':
      return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
    case 'array':
      return compareLists(a as Value[], b as Value[]);
    case 'set':
      return compareLists((a as RegoSet).values(), (b as RegoSet).values());
    default:
      return compareObjects(a as RegoObject, b as RegoObject);
  }
}

export function compareNumbers(a: AnyNum, b: AnyNum): number {
  if (typeof a === 'object' || typeof b === 'object') {
    return compareAnyNum(a, b);
  }
  if (typeof a === typeof b) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'number') {
    return -compareNumbers(b, a);
  }
  // a is bigint, b is number
  const n = b as number;
  if (!Number.isFinite(n)) {
    return n > 0 ? -1 : 1;
  }
  const whole = BigInt(Math.trunc(n));
  if (a !== whole) {
    return a < whole ? -1 : 1;
  }
  const frac = n - Math.trunc(n);
  return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

function compareLists(a: Value[], b: Value[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) {
      return c;
    }
  }
  return a.length - b.length;
}

function compareObjects(a: RegoObject, b: RegoObject): number {
  const ea = a.entries();
  const eb = b.entries();
  const n = Math.min(ea.length, eb.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(ea[i][0], eb[i][0]) || compareValues(ea[i][1], eb[i][1]);
    if (c !== 0) {
      return c;
    }
  }
  return ea.length - eb.length;
}

/** Rego equality (numbers by value). */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) {
    return true;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    if (
      (typeof a === 'number' || typeof a === 'bigint' || a instanceof BigNum) &&
      (typeof b === 'number' || typeof b === 'bigint' || b instanceof BigNum)
    ) {
      return compareNumbers(a, b) === 0;
    }
    return false;
  }
  return compareValues(a, b) === 0;
}
