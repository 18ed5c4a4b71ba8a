import { BigNum, normalizeInt } from './decimal';
import { RegoObject, RegoSet, Value, canonical } from './value';

/** Plain JSON as JavaScript holds it (bigint allowed for exact large integers). */
export type JsonValue =
  null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/** Converts a JavaScript JSON value into a Rego value. */
export function fromJson(v: unknown): Value {
  if (v === null || v === undefined) {
    return null;
  }
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'number':
      return v;
    case 'bigint':
      return normalizeBig(v);
    case 'function':
    case 'object':
    case 'symbol':
    case 'undefined':
    default:
      break;
  }
  if (Array.isArray(v)) {
    // Arrays of plain strings, booleans and safe numbers are already Rego values.
    for (const x of v as unknown[]) {
      if (x === null || x === undefined || typeof x === 'object' || typeof x === 'bigint') {
        return (v as unknown[]).map(fromJson);
      }
    }
    return v as Value[];
  }
  if (v instanceof RegoObject || v instanceof RegoSet || v instanceof BigNum) {
    return v;
  }
  return RegoObject.lazy(v as Record<string, unknown>);
}

RegoObject.convert = fromJson;

/** Converts a JSON value completely up front (used for `data`, which lives as long as the policy). */
export function fromJsonDeep(v: unknown): Value {
  const out = fromJson(v);
  const visit = (x: Value): void => {
    if (Array.isArray(x)) {
      x.forEach(visit);
    } else if (x instanceof RegoObject) {
      x.entries().forEach(([, y]) => visit(y));
    }
  };
  visit(out);
  return out;
}

/** Integers that fit in a double exactly are kept as `number`. */
export function normalizeBig(v: bigint): number | bigint {
  return normalizeInt(v);
}

/** Integers beyond 2^53 become (rounded) numbers so that the result is JSON.stringify-safe. */
export function toJson(v: Value): JsonValue {
  return plain(v, false);
}

/** Like `toJson`, but integers beyond 2^53 stay `bigint`. */
export function toJsonExact(v: Value): JsonValue {
  return plain(v, true);
}

function plain(v: Value, exact: boolean): JsonValue {
  if (typeof v === 'bigint') {
    return exact ? v : Number(v);
  }
  if (v === null || typeof v !== 'object') {
    return v;
  }
  if (v instanceof BigNum) {
    // JavaScript has no decimal: the nearest double (an exact integer stays exact in toJsonExact).
    return exact && v.isInteger ? v.toBigInt() : v.toNumber();
  }
  if (Array.isArray(v)) {
    return v.map((x) => plain(x, exact));
  }
  if (v instanceof RegoSet) {
    return v.values().map((x) => plain(x, exact));
  }
  const out: { [key: string]: JsonValue } = {};
  for (const [k, x] of v.entries()) {
    out[typeof k === 'string' ? k : jsonText(k)] = plain(x, exact);
  }
  return out;
}

/** Compact JSON text of a value (OPA's json.marshal). */
export function jsonText(v: Value): string {
  if (v === null) {
    return 'null';
  }
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return formatNumber(v);
    case 'bigint':
      return v.toString();
    case 'string':
      return goQuote(v);
    case 'function':
    case 'object':
    case 'symbol':
    case 'undefined':
    default:
      break;
  }
  if (Array.isArray(v)) {
    return '[' + v.map(jsonText).join(',') + ']';
  }
  if (v instanceof RegoSet) {
    return '[' + v.values().map(jsonText).join(',') + ']';
  }
  if (v instanceof BigNum) {
    // OPA marshals a number as its json.Number text.
    return v.text;
  }
  return (
    '{' +
    v
      .entries()
      .map(([k, x]) => goQuote(typeof k === 'string' ? k : jsonText(k)) + ':' + jsonText(x))
      .join(',') +
    '}'
  );
}

/** JSON string quoting as Go's encoding/json does it (HTML-safe escapes included). */
export function goQuote(s: string): string {
  return JSON.stringify(s).replace(
    /[<>&\u2028\u2029]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
  );
}

/** Number text as OPA prints it: integers plainly, floats in shortest form. */
export function formatNumber(n: number | bigint): string {
  if (typeof n === 'bigint') {
    return n.toString();
  }
  if (Number.isInteger(n) && Math.abs(n) < 1e21) {
    return Object.is(n, -0) ? '0' : n.toFixed(0);
  }
  return String(n).replace('e+', 'e+');
}

/** Rego source text of a value (used by sprintf %v and error messages). */
export function regoText(v: Value): string {
  if (v instanceof RegoSet) {
    return v.size === 0 ? 'set()' : '{' + v.values().map(regoText).join(', ') + '}';
  }
  if (Array.isArray(v)) {
    return '[' + v.map(regoText).join(', ') + ']';
  }
  if (v instanceof RegoObject) {
    return (
      '{' +
      v
        .entries()
        .map(([k, x]) => regoText(k) + ': ' + regoText(x))
        .join(', ') +
      '}'
    );
  }
  if (typeof v === 'string') {
    return JSON.stringify(v);
  }
  return jsonText(v);
}

export { canonical };
