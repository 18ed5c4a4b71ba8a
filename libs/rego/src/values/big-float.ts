/** Go's `big.Float` at 64 bits of mantissa, rounding to nearest even (E5). */

import { AnyNum, Dec, decOf, numberFromValue } from './decimal';

const PREC = 64;

/** A binary float: `m × 2^e`, |m| < 2^64. */
export interface BinFloat {
  m: bigint;
  e: number;
}

function bitLen(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** Rounds `±mag × 2^e` (plus a sticky bit for a discarded non-zero remainder) to 64 bits. */
function roundBits(mag: bigint, e: number, sticky: boolean, neg: boolean): BinFloat {
  const len = bitLen(mag);
  if (len <= PREC) {
    return { m: neg ? -mag : mag, e };
  }
  let shift = len - PREC;
  let q = mag >> BigInt(shift);
  const r = mag - (q << BigInt(shift));
  const half = 1n << BigInt(shift - 1);
  if (r > half || (r === half && (sticky || (q & 1n) === 1n))) {
    q += 1n;
    if (bitLen(q) > PREC) {
      q >>= 1n;
      shift++;
    }
  }
  return { m: neg ? -q : q, e: e + shift };
}

function quotient(num: bigint, den: bigint, e: number): BinFloat {
  const neg = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const s = Math.max(0, PREC + 2 + bitLen(d) - bitLen(n));
  const scaled = n << BigInt(s);
  const q = scaled / d;
  return roundBits(q, e - s, q * d !== scaled, neg);
}

/** OPA's `NumberToFloat`: the number's value rounded to 64 bits. */
export function toBinFloat(n: AnyNum): BinFloat {
  if (typeof n === 'number') {
    // Policy constants recur on every evaluation: remember their conversion (bounded).
    let f = BIN_CACHE.get(n);
    if (f === undefined) {
      f = decToBin(decOf(n));
      if (BIN_CACHE.size >= 4096) {
        BIN_CACHE.clear();
      }
      BIN_CACHE.set(n, f);
    }
    return f;
  }
  return decToBin(decOf(n));
}

const BIN_CACHE = new Map<number, BinFloat>();

function decToBin(d: Dec): BinFloat {
  if (d.exp >= 0) {
    const v = d.coef * 10n ** BigInt(d.exp);
    return roundBits(v < 0n ? -v : v, 0, false, v < 0n);
  }
  return quotient(d.coef, 10n ** BigInt(-d.exp), 0);
}

export function binAdd(a: BinFloat, b: BinFloat): BinFloat {
  const e = Math.min(a.e, b.e);
  const s = (a.m << BigInt(a.e - e)) + (b.m << BigInt(b.e - e));
  return roundBits(s < 0n ? -s : s, e, false, s < 0n);
}

export function binNeg(a: BinFloat): BinFloat {
  return { m: -a.m, e: a.e };
}

export function binMul(a: BinFloat, b: BinFloat): BinFloat {
  const p = a.m * b.m;
  return roundBits(p < 0n ? -p : p, a.e + b.e, false, p < 0n);
}

/** Quotient; the caller rejects a zero divisor. */
export function binQuo(a: BinFloat, b: BinFloat): BinFloat {
  return quotient(a.m, b.m, a.e - b.e);
}

export function binIsInt(a: BinFloat): boolean {
  if (a.e >= 0 || a.m === 0n) {
    return true;
  }
  const mag = a.m < 0n ? -a.m : a.m;
  return (mag & ((1n << BigInt(-a.e)) - 1n)) === 0n;
}

/** Integer part, truncated toward zero (big.Float.Int). */
export function binTrunc(a: BinFloat): bigint {
  if (a.e >= 0) {
    return a.m << BigInt(a.e);
  }
  return a.m / (1n << BigInt(-a.e));
}

export function binCmp(a: BinFloat, b: BinFloat): number {
  const e = Math.min(a.e, b.e);
  const x = a.m << BigInt(a.e - e);
  const y = b.m << BigInt(b.e - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function binFromInt(i: bigint): BinFloat {
  return roundBits(i < 0n ? -i : i, 0, false, i < 0n);
}

/**
 * OPA's `FloatToNumber`: `Text('f', -1)` for an integer, else `Text('g', -1)`: the shortest
 * decimal that rounds back to the same 64-bit float, as Go's `big.Float` writes it.
 */
export function binText(a: BinFloat): string {
  if (a.m === 0n) {
    return '0';
  }
  const neg = a.m < 0n;
  const { digits, dp } = shortest(neg ? -a.m : a.m, a.e);
  const sign = neg ? '-' : '';
  if (binIsInt(a)) {
    return sign + digits + '0'.repeat(Math.max(0, dp - digits.length));
  }
  const exp = dp - 1;
  if (exp < -4 || exp >= 6) {
    const mant = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    const ae = Math.abs(exp);
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`;
  }
  if (dp <= 0) {
    return `${sign}0.${'0'.repeat(-dp)}${digits}`;
  }
  if (dp >= digits.length) {
    return sign + digits + '0'.repeat(dp - digits.length);
  }
  return `${sign}${digits.slice(0, dp)}.${digits.slice(dp)}`;
}

/** Decimal digits of `m × 2^e` scaled by 10^scale to an integer (e < 0: scale = -e). */
function scaledDigits(m: bigint, e: number): string {
  return e >= 0 ? (m << BigInt(e)).toString() : (m * pow5(-e)).toString();
}

const POW5 = new Map<number, bigint>();

function pow5(n: number): bigint {
  let p = POW5.get(n);
  if (p === undefined) {
    p = 5n ** BigInt(n);
    if (POW5.size < 2048) {
      POW5.set(n, p);
    }
  }
  return p;
}

/** Length of a digit string without its trailing zeros. */
function trimmedLength(s: string): number {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 48) {
    end--;
  }
  return end;
}

/** Go's `roundShortest` (math/big/ftoa.go) for a positive float of 64-bit precision. */
function shortest(mag: bigint, e: number): { digits: string; dp: number } {
  // mant has PREC + 1 bits, its lsb being half an ulp of the float.
  const shift = PREC + 1 - bitLen(mag);
  const mant = mag << BigInt(shift);
  const exp = e - shift;
  const hi0 = scaledDigits(mant + 1n, exp);
  const width = hi0.length;
  const x = scaledDigits(mant, exp).padStart(width, '0');
  const lo = scaledDigits(mant - 1n, exp).padStart(width, '0');
  const hi = hi0;
  // The three are integers scaled by the same power of ten: one decimal point for all.
  const point = width - (exp < 0 ? -exp : 0);
  const lowerLen = trimmedLength(lo);
  const upperLen = trimmedLength(hi);
  const inclusive = (mant & 2n) === 0n;
  for (let i = 0; i < width; i++) {
    const m = x.charCodeAt(i);
    const l = lo.charCodeAt(i);
    const u = hi.charCodeAt(i);
    const okDown = l !== m || (inclusive && i + 1 === lowerLen);
    const okUp = m !== u && (inclusive || m + 1 < u || i + 1 < upperLen);
    if (okDown && okUp) {
      return finish(roundDigits(x, i + 1), point, i + 1);
    }
    if (okDown) {
      return finish(x.slice(0, i + 1), point, i + 1);
    }
    if (okUp) {
      return finish(incrementDigits(x.slice(0, i + 1)), point, i + 1);
    }
  }
  return finish(x, point, width);
}

/** Go's decimal.round at n digits: half up, except an exact half rounds to even. */
function roundDigits(d: string, n: number): string {
  const next = d.charCodeAt(n) - 48;
  const exactHalf = next === 5 && n + 1 === trimmedLength(d);
  const odd = ((d.charCodeAt(n - 1) - 48) & 1) === 1;
  const up = exactHalf ? odd : next >= 5;
  return up ? incrementDigits(d.slice(0, n)) : d.slice(0, n);
}

/** Adds one in the last place (a carry out of the first digit makes the string longer). */
function incrementDigits(d: string): string {
  const s = (BigInt(d) + 1n).toString();
  return s.length < d.length ? s.padStart(d.length, '0') : s;
}

/** `d` holds the first `n` aligned digits (one more after a carry): 0.digits × 10^dp. */
function finish(d: string, point: number, n: number): { digits: string; dp: number } {
  let dp = point + (d.length - n);
  let start = 0;
  while (start < d.length - 1 && d.charCodeAt(start) === 48) {
    start++;
    dp--;
  }
  const end = Math.max(start + 1, trimmedLength(d));
  return { digits: d.slice(start, end), dp };
}

/** The engine's number for a 64-bit float result (through its OPA text). */
export function numberFromBin(a: BinFloat): AnyNum {
  return numberFromValue(binText(a));
}
