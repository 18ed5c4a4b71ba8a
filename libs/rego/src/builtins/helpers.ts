import { BigNum } from '../values/decimal';
import { normalizeBig } from '../values/json';
import { RegoObject, RegoSet, Value, typeName } from '../values/value';
import { BuiltinContext, BuiltinDef, BuiltinError } from './types';

export type Num = number | bigint;

export function typeErr(pos: number, want: string, got: Value): BuiltinError {
  return new BuiltinError(
    'eval_type_error',
    `operand ${pos} must be ${want} but got ${typeName(got)}`,
  );
}

export function builtinErr(msg: string): BuiltinError {
  return new BuiltinError('eval_builtin_error', msg);
}

export function str(v: Value, pos: number): string {
  if (typeof v !== 'string') {
    throw typeErr(pos, 'string', v);
  }
  return v;
}

/** A number operand as a JS number or bigint (E5). */
export function num(v: Value, pos: number): Num {
  if (typeof v !== 'number' && typeof v !== 'bigint') {
    if (v instanceof BigNum) {
      return v.isInteger ? normalizeBig(v.toBigInt()) : v.toNumber();
    }
    throw typeErr(pos, 'number', v);
  }
  return v;
}

/** A number of any representation (number, bigint or BigNum). */
export function isNum(v: Value): v is Num | BigNum {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof BigNum;
}

export function isInt(v: Num): boolean {
  return typeof v === 'bigint' || Number.isInteger(v);
}

/** An integer operand (OPA: "operand N must be integer number but got floating-point number"). */
export function int(v: Value, pos: number): Num {
  const n = num(v, pos);
  // A BigNum's text has a fraction or an exponent (`1.0`, `1e3`): Go's Int() refuses it.
  if (!isInt(n) || v instanceof BigNum) {
    throw new BuiltinError(
      'eval_type_error',
      `operand ${pos} must be integer number but got floating-point number`,
    );
  }
  return n;
}

/** A small integer as JS number. */
export function smallInt(v: Value, pos: number): number {
  return Number(int(v, pos));
}

export function arr(v: Value, pos: number): Value[] {
  if (!Array.isArray(v)) {
    throw typeErr(pos, 'array', v);
  }
  return v;
}

export function obj(v: Value, pos: number): RegoObject {
  if (!(v instanceof RegoObject)) {
    throw typeErr(pos, 'object', v);
  }
  return v;
}

export function set(v: Value, pos: number): RegoSet {
  if (!(v instanceof RegoSet)) {
    throw typeErr(pos, 'set', v);
  }
  return v;
}

export function bool(v: Value, pos: number): boolean {
  if (typeof v !== 'boolean') {
    throw typeErr(pos, 'boolean', v);
  }
  return v;
}

/** Elements of an array or set. */
export function elems(v: Value, pos: number, want = 'one of {array, set}'): Value[] {
  if (Array.isArray(v)) {
    return v;
  }
  if (v instanceof RegoSet) {
    return v.values();
  }
  throw typeErr(pos, want, v);
}

export function oneOf(pos: number, types: string, v: Value): BuiltinError {
  return typeErr(pos, `one of {${types}}`, v);
}

/** Integer arithmetic that stays exact beyond 2^53. */
export function intOp(
  a: Num,
  b: Num,
  op: (x: bigint, y: bigint) => bigint,
  fast: (x: number, y: number) => number,
): Num {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = fast(a, b);
    if (Number.isSafeInteger(r)) {
      return r;
    }
  }
  return normalizeBig(op(BigInt(a), BigInt(b)));
}

export function toBig(n: Num): bigint {
  return typeof n === 'bigint' ? n : BigInt(n);
}

type Fn = (args: Value[], ctx: BuiltinContext) => Value | undefined;

/** Shorthand to declare a built-in. */
export function def(
  name: string,
  arity: number,
  fn: Fn,
  extra: Partial<BuiltinDef> = {},
): BuiltinDef {
  return { name, arity, fn, ...extra };
}
