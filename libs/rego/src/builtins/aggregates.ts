import { AnyNum, BigNum } from '../values/decimal';
import { BinFloat, binAdd, binMul, numberFromBin, toBinFloat } from '../values/big-float';
import { normalizeBig } from '../values/json';
import { RegoObject, RegoSet, Value, compareValues } from '../values/value';
import { BuiltinDef } from './types';
import { Num, def, elems, intOp, isInt, oneOf, typeErr } from './helpers';

function numbersOf(v: Value, pos: number): AnyNum[] {
  const xs = elems(v, pos, 'one of {array, set}');
  return xs.map((x) => {
    if (typeof x !== 'number' && typeof x !== 'bigint' && !(x instanceof BigNum)) {
      throw typeErr(pos, 'one of {array, set} of numbers', v);
    }
    return x;
  });
}

/** sum and product as OPA computes them (E5). */
function fold(
  xs: AnyNum[],
  init: Num,
  op: (a: bigint, b: bigint) => bigint,
  fast: (a: number, b: number) => number,
  float: (a: BinFloat, b: BinFloat) => BinFloat,
): AnyNum {
  let acc: Num = init;
  let i = 0;
  for (; i < xs.length; i++) {
    const x = xs[i];
    if (x instanceof BigNum ? !x.isInteger : !isInt(x)) {
      break;
    }
    acc = intOp(acc, x instanceof BigNum ? x.toBigInt() : x, op, fast);
  }
  if (i === xs.length) {
    return typeof acc === 'bigint' ? normalizeBig(acc) : acc;
  }
  let f = toBinFloat(init);
  for (const x of xs) {
    f = float(f, toBinFloat(x));
  }
  return numberFromBin(f);
}

function count(v: Value): number {
  if (typeof v === 'string') {
    return [...v].length;
  }
  if (Array.isArray(v)) {
    return v.length;
  }
  if (v instanceof RegoObject || v instanceof RegoSet) {
    return v.size;
  }
  throw oneOf(1, 'array, object, set, string', v);
}

function extreme(v: Value, sign: number): Value | undefined {
  const xs = elems(v, 1);
  if (xs.length === 0) {
    return undefined;
  }
  return xs.reduce((a, b) => (compareValues(b, a) * sign > 0 ? b : a));
}

export const AGGREGATE_BUILTINS: BuiltinDef[] = [
  def('count', 1, ([v]) => count(v)),
  def('sum', 1, ([v]) =>
    fold(
      numbersOf(v, 1),
      0,
      (a, b) => a + b,
      (a, b) => a + b,
      binAdd,
    ),
  ),
  def('product', 1, ([v]) =>
    fold(
      numbersOf(v, 1),
      1,
      (a, b) => a * b,
      (a, b) => a * b,
      binMul,
    ),
  ),
  def('max', 1, ([v]) => extreme(v, 1)),
  def('min', 1, ([v]) => extreme(v, -1)),
  def('sort', 1, ([v]) => [...elems(v, 1)].sort(compareValues)),
  def('any', 1, ([v]) => elems(v, 1).some((x) => x === true)),
  def('all', 1, ([v]) => elems(v, 1).every((x) => x === true)),
];
