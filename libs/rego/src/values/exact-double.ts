// A shortcut past Go's big.Float for the common float arithmetic of policies (`x * 1.5 + 0.25`):
// when both operands are doubles whose binary value is exactly the decimal their text denotes, and
// the double result is exact too, big.Float at 64 bits would compute the very same value, so the
// double is OPA's answer (docs/decisions/rego.md E5).

/** 5^f for the fraction bits a text-exact double may have. */
const POW5 = Array.from({ length: 25 }, (_, f) => 5 ** f);

/**
 * True when the double's binary value is the decimal its shortest text denotes, proven without
 * formatting it: 1.5 and 0.375 are, 0.1 is not (its double is 0.1000000000000000055…).
 */
export function isTextExact(x: number): boolean {
  if (Number.isInteger(x)) {
    return Number.isSafeInteger(x);
  }
  if (!Number.isFinite(x)) {
    return false;
  }
  let scaled = x;
  let bits = 0;
  while (!Number.isInteger(scaled)) {
    if (++bits >= POW5.length) {
      return false;
    }
    scaled *= 2;
  }
  return Math.abs(scaled) * POW5[bits] < 1e15;
}

const SPLITTER = 134217729; // 2^27 + 1, Dekker's split of a double into two 26-bit halves

/** The rounding error of `a * b` (Dekker's TwoProduct); 0 when the product is exact. */
function productError(a: number, b: number, p: number): number {
  let c = SPLITTER * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLITTER * b;
  const bh = c - (c - b);
  const bl = b - bh;
  return ah * bh - p + ah * bl + al * bh + al * bl;
}

/** The rounding error of `a + b` (Knuth's TwoSum); 0 when the sum is exact. */
function sumError(a: number, b: number, s: number): number {
  const bb = s - a;
  return a - (s - bb) + (b - bb);
}

export type ExactOp = 'plus' | 'minus' | 'mul' | 'div';

/** Operands must already be text-exact (see `isTextExact`). */
export function exactDoubleOp(op: ExactOp, a: number, b: number): number | undefined {
  let r: number;
  let exact: boolean;
  switch (op) {
    case 'plus':
      r = a + b;
      exact = sumError(a, b, r) === 0;
      break;
    case 'minus':
      r = a - b;
      exact = sumError(a, -b, r) === 0;
      break;
    case 'mul':
      r = a * b;
      exact = productError(a, b, r) === 0;
      break;
    case 'div':
      if (b === 0) {
        return undefined;
      }
      r = a / b;
      exact = productError(r, b, r * b) === 0 && r * b === a;
      break;
  }
  if (!exact || !isTextExact(r)) {
    return undefined;
  }
  return r === 0 ? 0 : r;
}
