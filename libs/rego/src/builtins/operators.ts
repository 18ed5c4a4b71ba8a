import { normalizeBig } from '../values/json';
import { AnyNum, BigNum } from '../values/decimal';
import {
  BinFloat,
  binAdd,
  binCmp,
  binFromInt,
  binMul,
  binNeg,
  binQuo,
  binTrunc,
  numberFromBin,
  toBinFloat,
} from '../values/big-float';
import { ExactOp, exactDoubleOp, isTextExact } from '../values/exact-double';
import { RegoObject, RegoSet, Value, compareValues, valuesEqual } from '../values/value';
import { BuiltinContext, BuiltinDef } from './types';
import { Num, builtinErr, def, int, isInt, num, oneOf, toBig, typeErr } from './helpers';

/** A number operand in any representation. */
function anyNum(v: Value, pos: number): AnyNum {
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof BigNum) {
    return v;
  }
  throw typeErr(pos, 'number', v);
}

function isIntegral(n: AnyNum): boolean {
  return typeof n === 'bigint' || (typeof n === 'number' ? Number.isInteger(n) : n.isInteger);
}

function bigOf(n: AnyNum): bigint {
  return typeof n === 'bigint' ? n : typeof n === 'number' ? BigInt(n) : n.toBigInt();
}

/** OPA's arithmetic (topdown/arithmetic.go) (E5). */
function arith(
  name: ExactOp,
  ints: (x: bigint, y: bigint) => bigint,
  fast: (x: number, y: number) => number,
  float: (x: BinFloat, y: BinFloat) => BinFloat,
): BuiltinDef {
  return def(name, 2, ([a, b]) => {
    if (
      typeof a === 'number' &&
      typeof b === 'number' &&
      Number.isInteger(a) &&
      Number.isInteger(b)
    ) {
      const r = fast(a, b);
      if (Number.isSafeInteger(r)) {
        return r;
      }
    }
    const exact = exactDoubles(name, a, b);
    if (exact !== undefined) {
      return exact;
    }
    const x = anyNum(a, 1);
    const y = anyNum(b, 2);
    if (isIntegral(x) && isIntegral(y)) {
      return normalizeBig(ints(bigOf(x), bigOf(y)));
    }
    return numberFromBin(float(toBinFloat(x), toBinFloat(y)));
  });
}

/** The double answer when both operands and the result are exact doubles (exact-double.ts). */
function exactDoubles(op: ExactOp, a: Value, b: Value): number | undefined {
  if (typeof a !== 'number' || typeof b !== 'number' || !isTextExact(a) || !isTextExact(b)) {
    return undefined;
  }
  return exactDoubleOp(op, a, b);
}

function div(a: Value, b: Value): Value {
  if (
    typeof a === 'number' &&
    typeof b === 'number' &&
    Number.isSafeInteger(a) &&
    Number.isSafeInteger(b)
  ) {
    if (b === 0) {
      throw builtinErr('divide by zero');
    }
    if (a !== 0 && a % b === 0) {
      return a / b;
    }
  }
  const exact = exactDoubles('div', a, b);
  if (exact !== undefined) {
    return exact;
  }
  const x = toBinFloat(anyNum(a, 1));
  const y = toBinFloat(anyNum(b, 2));
  if (y.m === 0n) {
    throw builtinErr('divide by zero');
  }
  // Big integers too: OPA divides them as 64-bit floats.
  return numberFromBin(binQuo(x, y));
}

function rem(a: Value, b: Value): Value {
  const x = anyNum(a, 1);
  const y = anyNum(b, 2);
  if (!isIntegral(x) || !isIntegral(y)) {
    throw builtinErr('modulo on floating-point number');
  }
  if (typeof x === 'number' && typeof y === 'number') {
    if (y === 0) {
      throw builtinErr('modulo by zero');
    }
    return x % y;
  }
  const by = bigOf(y);
  if (by === 0n) {
    throw builtinErr('modulo by zero');
  }
  return normalizeBig(bigOf(x) % by);
}

/** abs, round, ceil, floor: identity on integers, Go's big.Float operations on a BigNum. */
function unary(
  name: string,
  onNumber: (n: number) => number,
  onBin: (f: BinFloat) => BinFloat,
): BuiltinDef {
  return def(name, 1, ([a]) => {
    const n = anyNum(a, 1);
    if (typeof n === 'number') {
      return onNumber(n);
    }
    if (typeof n === 'bigint' || n.isInteger) {
      const i = bigOf(n);
      return normalizeBig(name === 'abs' && i < 0n ? -i : i);
    }
    return numberFromBin(onBin(toBinFloat(n)));
  });
}

const HALF: BinFloat = { m: 1n, e: -1 };
const ONE: BinFloat = { m: 1n, e: 0 };

function binRound(f: BinFloat): BinFloat {
  return binFromInt(binTrunc(binAdd(f, f.m < 0n ? binNeg(HALF) : HALF)));
}

function binFloor(f: BinFloat): BinFloat {
  const t = binFromInt(binTrunc(f));
  return f.m >= 0n || binCmp(f, t) === 0 ? t : binAdd(t, binNeg(ONE));
}

function binCeil(f: BinFloat): BinFloat {
  const t = binFromInt(binTrunc(f));
  return f.m < 0n || binCmp(f, t) === 0 ? t : binAdd(t, ONE);
}

function setOp(name: string, op: (a: RegoSet, b: RegoSet) => RegoSet): BuiltinDef {
  return def(name, 2, ([a, b]) => {
    if (!(a instanceof RegoSet)) {
      throw typeErr(1, 'set', a);
    }
    if (!(b instanceof RegoSet)) {
      throw typeErr(2, 'set', b);
    }
    return op(a, b);
  });
}

function member(x: Value, coll: Value): boolean {
  if (Array.isArray(coll)) {
    return coll.some((v) => valuesEqual(v, x));
  }
  if (coll instanceof RegoSet) {
    return coll.has(x);
  }
  if (coll instanceof RegoObject) {
    return coll.entries().some(([, v]) => valuesEqual(v, x));
  }
  return false;
}

function member3(k: Value, x: Value, coll: Value): boolean {
  if (Array.isArray(coll)) {
    return (
      typeof k === 'number' &&
      Number.isInteger(k) &&
      k >= 0 &&
      k < coll.length &&
      valuesEqual(coll[k], x)
    );
  }
  if (coll instanceof RegoObject) {
    const v = coll.get(k);
    return v !== undefined && valuesEqual(v, x);
  }
  if (coll instanceof RegoSet) {
    return valuesEqual(k, x) && coll.has(x);
  }
  return false;
}

function round(n: number): number {
  // Go's math.Round: half away from zero.
  return Math.sign(n) * Math.round(Math.abs(n));
}

function range(a: Value, b: Value, step: Num, ctx: BuiltinContext): Value[] {
  const x = int(a, 1);
  const y = int(b, 2);
  if (typeof x === 'bigint' || typeof y === 'bigint' || typeof step === 'bigint') {
    return bigRange(toBig(x), toBig(y), toBig(step), ctx);
  }
  const lo = x;
  const hi = y;
  const s = Number(step);
  const out: Value[] = [];
  // Charge the budget before allocating so a huge range cannot stall the caller.
  ctx.tick(Math.floor(Math.abs(hi - lo) / s) + 1);
  if (lo <= hi) {
    for (let i = lo; i <= hi; i += s) {
      out.push(i);
    }
  } else {
    for (let i = lo; i >= hi; i -= s) {
      out.push(i);
    }
  }
  return out;
}

const MINUS = arith(
  'minus',
  (x, y) => x - y,
  (x, y) => x - y,
  (x, y) => binAdd(x, binNeg(y)),
);

/** A range with a bound beyond 2^53: exact integers, as OPA's big.Int ranges. */
function bigRange(lo: bigint, hi: bigint, step: bigint, ctx: BuiltinContext): Value[] {
  const span = (hi >= lo ? hi - lo : lo - hi) / step + 1n;
  ctx.tick(span > 1_000_000_000n ? 1_000_000_000 : Number(span));
  const out: Value[] = [];
  const dir = hi >= lo ? step : -step;
  for (let i = lo; dir > 0n ? i <= hi : i >= hi; i += dir) {
    out.push(normalizeBig(i));
  }
  return out;
}

export const OPERATOR_BUILTINS: BuiltinDef[] = [
  def('equal', 2, ([a, b]) => valuesEqual(a, b)),
  def('neq', 2, ([a, b]) => !valuesEqual(a, b)),
  def('lt', 2, ([a, b]) => compareValues(a, b) < 0),
  def('lte', 2, ([a, b]) => compareValues(a, b) <= 0),
  def('gt', 2, ([a, b]) => compareValues(a, b) > 0),
  def('gte', 2, ([a, b]) => compareValues(a, b) >= 0),
  arith(
    'plus',
    (x, y) => x + y,
    (x, y) => x + y,
    binAdd,
  ),
  def('minus', 2, ([a, b]) => {
    if (a instanceof RegoSet || b instanceof RegoSet) {
      if (!(a instanceof RegoSet)) {
        throw typeof a === 'number' || typeof a === 'bigint'
          ? typeErr(2, 'number', b)
          : oneOf(1, 'number, set', a);
      }
      if (!(b instanceof RegoSet)) {
        throw typeErr(2, 'set', b);
      }
      return RegoSet.from(a.values().filter((v) => !b.has(v)));
    }
    return MINUS.fn([a, b], undefined as never);
  }),
  arith(
    'mul',
    (x, y) => x * y,
    (x, y) => x * y,
    binMul,
  ),
  def('div', 2, ([a, b]) => div(a, b)),
  def('rem', 2, ([a, b]) => rem(a, b)),
  setOp('and', (a, b) => RegoSet.from(a.values().filter((v) => b.has(v)))),
  setOp('or', (a, b) => RegoSet.from([...a.values(), ...b.values()])),
  def('internal.member_2', 2, ([x, c]) => member(x, c)),
  def('internal.member_3', 3, ([k, x, c]) => member3(k, x, c)),
  unary('abs', Math.abs, (f) => ({ m: f.m < 0n ? -f.m : f.m, e: f.e })),
  unary('round', round, binRound),
  unary('ceil', Math.ceil, binCeil),
  unary('floor', Math.floor, binFloor),
  def('numbers.range', 2, ([a, b], ctx) => range(a, b, 1, ctx)),
  def('numbers.range_step', 3, ([a, b, s], ctx) => {
    const st = num(s, 3);
    if (!isInt(st) || Number(st) <= 0) {
      throw builtinErr('step must be a positive integer');
    }
    return range(a, b, st, ctx);
  }),
];
