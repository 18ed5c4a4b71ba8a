import { BigNum } from './decimal';
import { canonical, compareValues } from './order';

/** Rego values. */
export type Scalar = null | boolean | number | bigint | string | BigNum;
export type Value = Scalar | Value[] | RegoObject | RegoSet;

type PrimKey = null | boolean | number | bigint | string;

/** Key used in hash maps: primitives stand for themselves, composites use a canonical string. */
function isPrim(v: Value): v is null | boolean | number | bigint | string {
  return v === null || typeof v !== 'object';
}

/** Rego object: string keys in one map, other keys under their canonical encoding. */
export class RegoObject {
  /** Converts plain JSON lazily (set by the JSON module to avoid an import cycle). */
  static convert: (v: unknown) => Value = () => null;

  private readonly strs = new Map<string, Value>();
  private others: Map<PrimKey, [Value, Value]> | undefined;
  private sortedCache: [Value, Value][] | undefined;
  /** Plain JSON object not yet converted: members are converted on first access. */
  private raw: Record<string, unknown> | undefined;

  /** Wraps a plain JSON object without converting it up front. */
  static lazy(raw: Record<string, unknown>): RegoObject {
    const o = new RegoObject();
    o.raw = raw;
    return o;
  }

  private materialize(): void {
    const raw = this.raw;
    if (raw) {
      this.raw = undefined;
      for (const k of Object.keys(raw)) {
        const x = raw[k];
        if (x !== undefined && !this.strs.has(k)) {
          this.strs.set(k, RegoObject.convert(x));
        }
      }
    }
  }

  get size(): number {
    this.materialize();
    return this.strs.size + (this.others ? this.others.size : 0);
  }

  get(key: Value): Value | undefined {
    if (typeof key === 'string') {
      const raw = this.raw;
      if (raw === undefined) {
        return this.strs.get(key);
      }
      // JSON values are never functions: a function here is an Object.prototype member, not data.
      const x =
        key === '__proto__'
          ? Object.prototype.hasOwnProperty.call(raw, key)
            ? raw[key]
            : undefined
          : raw[key];
      if (x !== undefined && typeof x !== 'function') {
        // Strings, booleans, null and safe numbers are already Rego values: no conversion, no cache.
        if (
          x === null ||
          typeof x === 'string' ||
          typeof x === 'boolean' ||
          typeof x === 'number'
        ) {
          return x;
        }
        const cached = this.strs.get(key);
        if (cached !== undefined) {
          return cached;
        }
        const c = RegoObject.convert(x);
        this.strs.set(key, c);
        return c;
      }
      return this.strs.get(key);
    }
    return this.others?.get(otherKey(key))?.[1];
  }

  has(key: Value): boolean {
    return this.get(key) !== undefined;
  }

  /** Mutates: only while building a fresh object. */
  set(key: Value, value: Value): void {
    this.materialize();
    this.sortedCache = undefined;
    if (typeof key === 'string') {
      this.strs.set(key, value);
      return;
    }
    this.others ??= new Map();
    this.others.set(otherKey(key), [key, value]);
  }

  delete(key: Value): void {
    this.materialize();
    this.sortedCache = undefined;
    if (typeof key === 'string') {
      this.strs.delete(key);
    } else {
      this.others?.delete(otherKey(key));
    }
  }

  /** Entries in Rego's key order (cached; objects are immutable once built). */
  entries(): [Value, Value][] {
    if (this.sortedCache) {
      return this.sortedCache;
    }
    this.materialize();
    const out: [Value, Value][] = [];
    for (const [k, v] of this.strs) {
      out.push([k, v]);
    }
    if (this.others) {
      for (const kv of this.others.values()) {
        out.push(kv);
      }
      out.sort((a, b) => compareValues(a[0], b[0]));
    } else {
      out.sort((a, b) =>
        (a[0] as string) < (b[0] as string) ? -1 : (a[0] as string) > (b[0] as string) ? 1 : 0,
      );
    }
    this.sortedCache = out;
    return out;
  }

  keys(): Value[] {
    return this.entries().map((e) => e[0]);
  }

  hasOnlyStringKeys(): boolean {
    this.materialize();
    return !this.others || this.others.size === 0;
  }

  static from(entries: Iterable<[Value, Value]>): RegoObject {
    const o = new RegoObject();
    for (const [k, v] of entries) {
      o.set(k, v);
    }
    return o;
  }
}

/** Rego set with value equality. */
export class RegoSet {
  private readonly items = new Map<PrimKey, Value>();
  private sortedCache: Value[] | undefined;

  get size(): number {
    return this.items.size;
  }

  has(v: Value): boolean {
    return this.items.has(isPrim(v) ? primKey(v) : otherKey(v));
  }

  add(v: Value): void {
    this.sortedCache = undefined;
    this.items.set(isPrim(v) ? primKey(v) : otherKey(v), v);
  }

  delete(v: Value): void {
    this.sortedCache = undefined;
    this.items.delete(isPrim(v) ? primKey(v) : otherKey(v));
  }

  /** Elements in Rego's order. */
  values(): Value[] {
    if (!this.sortedCache) {
      this.sortedCache = [...this.items.values()].sort(compareValues);
    }
    return this.sortedCache;
  }

  static from(values: Iterable<Value>): RegoSet {
    const s = new RegoSet();
    for (const v of values) {
      s.add(v);
    }
    return s;
  }
}

function primKey(v: null | boolean | number | bigint | string): PrimKey {
  // Strings and composites share no key space: composite keys are prefixed with a NUL marker
  // that a canonical string never starts with for primitives handled here.
  if (typeof v === 'string') {
    return v.length > 0 && v.charCodeAt(0) === 0 ? '\u0000s' + v : v;
  }
  if (typeof v === 'number' && !Number.isSafeInteger(v) && Number.isInteger(v)) {
    // A large integral double (from JSON input) keys as the equal bigint does.
    return BigInt(v);
  }
  return v;
}

function otherKey(v: Value): PrimKey {
  if (isPrim(v)) {
    return primKey(v);
  }
  return v instanceof BigNum ? v.key() : '\u0000' + canonical(v);
}

export { canonical, compareNumbers, compareValues, typeName, valuesEqual } from './order';
export { BigNum } from './decimal';
