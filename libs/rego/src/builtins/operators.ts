import { normalizeBig } from '../values/json';
import { RegoObject, RegoSet, Value, compareValues, valuesEqual } from '../values/value';
import { BuiltinContext, BuiltinDef } from './types';
import { Num, builtinErr, def, int, intOp, isInt, num, oneOf, typeErr } from './helpers';

function arith(
  name: string,
  ints: (x: bigint, y: bigint) => bigint,
  fast: (x: number, y: number) => number,
): BuiltinDef {
  return def(name, 2, ([a, b]) => {
    const x = num(a, 1);
    const y = num(b, 2);
    if (isInt(x) && isInt(y)) {
      return intOp(x, y, ints, fast);
    }
    return fast(Number(x), Number(y));
  });
}

function div(a: Value, b: Value): Value {
  const x = num(a, 1);
  const y = num(b, 2);
  if (Number(y) === 0) {
    throw builtinErr('divide by zero');
  }
  if (typeof x === 'bigint' || typeof y === 'bigint') {
    const bx = BigInt(x);
    const by = BigInt(y);
    if (isInt(x) && isInt(y) && bx % by === 0n) {
      return normalizeBig(bx / by);
    }
  }
  return Number(x) / Number(y);
}

function rem(a: Value, b: Value): Value {
  const x = num(a, 1);
  const y = num(b, 2);
  if (!isInt(x) || !isInt(y)) {
    throw builtinErr('modulo on floating-point number');
  }
  if (Number(y) === 0) {
    throw builtinErr('modulo by zero');
  }
  return typeof x === 'number' && typeof y === 'number'
    ? x % y
    : normalizeBig(BigInt(x) % BigInt(y));
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

function round(n: Num): Num {
  if (typeof n === 'bigint') {
    return n;
  }
  // Go's math.Round: half away from zero.
  return Math.sign(n) * Math.round(Math.abs(n));
}

function range(a: Value, b: Value, step: Num, ctx: BuiltinContext): Value[] {
  const x = int(a, 1);
  const y = int(b, 2);
  const lo = Number(x);
  const hi = Number(y);
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
    const x = num(a, 1);
    const y = num(b, 2);
    return isInt(x) && isInt(y)
      ? intOp(
          x,
          y,
          (p, q) => p - q,
          (p, q) => p - q,
        )
      : Number(x) - Number(y);
  }),
  arith(
    'mul',
    (x, y) => x * y,
    (x, y) => x * y,
  ),
  def('div', 2, ([a, b]) => div(a, b)),
  def('rem', 2, ([a, b]) => rem(a, b)),
  setOp('and', (a, b) => RegoSet.from(a.values().filter((v) => b.has(v)))),
  setOp('or', (a, b) => RegoSet.from([...a.values(), ...b.values()])),
  def('internal.member_2', 2, ([x, c]) => member(x, c)),
  def('internal.member_3', 3, ([k, x, c]) => member3(k, x, c)),
  def('abs', 1, ([a]) => {
    const n = num(a, 1);
    return typeof n === 'bigint' ? (n < 0n ? normalizeBig(-n) : n) : Math.abs(n);
  }),
  def('round', 1, ([a]) => round(num(a, 1))),
  def('ceil', 1, ([a]) => {
    const n = num(a, 1);
    return typeof n === 'bigint' ? n : Math.ceil(n);
  }),
  def('floor', 1, ([a]) => {
    const n = num(a, 1);
    return typeof n === 'bigint' ? n : Math.floor(n);
  }),
  def('numbers.range', 2, ([a, b], ctx) => range(a, b, 1, ctx)),
  def('numbers.range_step', 3, ([a, b, s], ctx) => {
    const st = num(s, 3);
    if (!isInt(st) || Number(st) <= 0) {
      throw builtinErr('step must be a positive integer');
    }
    return range(a, b, st, ctx);
  }),
];
