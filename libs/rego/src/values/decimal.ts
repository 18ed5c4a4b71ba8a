/** Numbers as OPA holds them (E5). */

/** An exact decimal: `coef × 10^exp`, `coef` not divisible by 10 unless it is 0 (then exp 0). */
export interface Dec {
  coef: bigint;
  exp: number;
}

const DEC_RE = /^(-?)([0-9]+)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/** Exact value of a JSON number text, or undefined when it is not one. */
export function parseDec(text: string): Dec | undefined {
  const m = DEC_RE.exec(text);
  if (!m) {
    return undefined;
  }
  const frac = m[3] ?? '';
  let coef = BigInt(m[2] + frac);
  if (m[1] === '-') {
    coef = -coef;
  }
  return normDec(coef, Number(m[4] ?? '0') - frac.length);
}

function normDec(coef: bigint, exp: number): Dec {
  if (coef === 0n) {
    return { coef: 0n, exp: 0 };
  }
  let s = (coef < 0n ? -coef : coef).toString();
  let e = exp;
  let end = s.length;
  while (end > 1 && s.charCodeAt(end - 1) === 48) {
    end--;
    e++;
  }
  if (end !== s.length) {
    s = s.slice(0, end);
    return { coef: coef < 0n ? -BigInt(s) : BigInt(s), exp: e };
  }
  return { coef, exp: e };
}

/** True when OPA's text of a number has a fraction or an exponent (sprintf formats it as a float). */
export function isFloatText(text: string): boolean {
  return /[.eE]/.test(text);
}

/** A number that is neither a double nor an exact integer of this engine. */
export class BigNum {
  private keyCache: bigint | number | string | undefined;

  constructor(
    /** OPA's text of the number (literal, JSON, or `big.Float` result). */
    readonly text: string,
    readonly dec: Dec,
  ) {}

  get isInteger(): boolean {
    return this.dec.exp >= 0;
  }

  toBigInt(): bigint {
    return this.dec.coef * 10n ** BigInt(this.dec.exp);
  }

  toNumber(): number {
    return Number(this.text);
  }

  /** Hash key shared with every equal number. */
  key(): bigint | number | string {
    if (this.keyCache === undefined) {
      const d = this.isInteger ? undefined : exactDouble(this.dec);
      this.keyCache = this.isInteger
        ? normalizeInt(this.toBigInt())
        : (d ?? `\u0000n${this.dec.coef}e${this.dec.exp}`);
    }
    return this.keyCache;
  }

  /** Canonical text: equal numbers give equal text (integers as digits, doubles as JS prints). */
  canonical(): string {
    if (this.isInteger) {
      return this.toBigInt().toString();
    }
    const d = exactDouble(this.dec);
    return d !== undefined ? String(d) : `${this.dec.coef}e${this.dec.exp}`;
  }

  negate(): BigNum {
    const t = this.text.startsWith('-') ? this.text.slice(1) : '-' + this.text;
    return new BigNum(t, { coef: -this.dec.coef, exp: this.dec.exp });
  }
}

/** The double whose shortest text denotes exactly this non-zero decimal, if there is one. */
function exactDouble(d: Dec): number | undefined {
  const n = Number(`${d.coef}e${d.exp}`);
  if (n === 0 || !Number.isFinite(n)) {
    return undefined;
  }
  const back = parseDec(String(n));
  return back && back.coef === d.coef && back.exp === d.exp ? n : undefined;
}

/** Integers that fit in a double exactly are kept as `number`. */
export function normalizeInt(v: bigint): number | bigint {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

export type AnyNum = number | bigint | BigNum;

/** The engine's value for a number text, one representation per value. */
export function numberFromText(text: string): AnyNum {
  const d = parseDec(text);
  if (!d) {
    return Number(text);
  }
  if (d.exp >= 0) {
    // OPA keeps a number's text (`json.Number`): `1.0` and `1e3` marshal as written.
    return isFloatText(text) ? new BigNum(text, d) : normalizeInt(d.coef * 10n ** BigInt(d.exp));
  }
  const n = exactDouble(d);
  if (n !== undefined && String(n) === text) {
    return n;
  }
  return new BigNum(text, d);
}

/** Exact decimal value of a number of this engine (a double denotes its shortest text). */
export function decOf(n: AnyNum): Dec {
  if (typeof n === 'bigint') {
    return normDec(n, 0);
  }
  if (typeof n === 'number') {
    if (Number.isSafeInteger(n)) {
      return normDec(BigInt(n), 0);
    }
    return parseDec(String(n)) ?? { coef: 0n, exp: 0 };
  }
  return n.dec;
}

/** Number of digits before the decimal point when written without exponent (magnitude). */
function adjusted(d: Dec): number {
  const digits = d.coef < 0n ? d.coef.toString().length - 1 : d.coef.toString().length;
  return digits + d.exp;
}

/** Exact comparison of two decimals. */
export function compareDec(a: Dec, b: Dec): number {
  const sa = a.coef < 0n ? -1 : a.coef > 0n ? 1 : 0;
  const sb = b.coef < 0n ? -1 : b.coef > 0n ? 1 : 0;
  if (sa !== sb || sa === 0) {
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  const ma = adjusted(a);
  const mb = adjusted(b);
  if (ma !== mb) {
    return (ma < mb ? -1 : 1) * sa;
  }
  // Same magnitude: the exponents differ by at most the digit counts, so scaling is cheap.
  const e = Math.min(a.exp, b.exp);
  const x = a.coef * 10n ** BigInt(a.exp - e);
  const y = b.coef * 10n ** BigInt(b.exp - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Exact comparison of any two numbers of this engine. */
export function compareAnyNum(a: AnyNum, b: AnyNum): number {
  return compareDec(decOf(a), decOf(b));
}

/** The engine's value for a computed number's text, by value only (the text is not kept). */
export function numberFromValue(text: string): AnyNum {
  const d = parseDec(text);
  if (!d) {
    return Number(text);
  }
  if (d.exp >= 0) {
    return d.coef !== 0n && d.exp > 0 && isFloatText(text) && adjusted(d) > 21
      ? new BigNum(text, d)
      : normalizeInt(d.coef * 10n ** BigInt(d.exp));
  }
  return exactDouble(d) ?? new BigNum(text, d);
}
