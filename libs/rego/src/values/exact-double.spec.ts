import { AnyNum } from './decimal';
import { BinFloat, binAdd, binMul, binNeg, binQuo, numberFromBin, toBinFloat } from './big-float';
import { ExactOp, exactDoubleOp, isTextExact } from './exact-double';

/** The big.Float path every answer of the shortcut must agree with. */
const BIG_FLOAT: Record<ExactOp, (x: BinFloat, y: BinFloat) => BinFloat> = {
  plus: binAdd,
  minus: (x, y) => binAdd(x, binNeg(y)),
  mul: binMul,
  div: binQuo,
};

function viaBigFloat(op: ExactOp, a: number, b: number): AnyNum {
  return numberFromBin(BIG_FLOAT[op](toBinFloat(a), toBinFloat(b)));
}

/** A small seeded generator, so a failure names a case that replays. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('isTextExact', () => {
  it('accepts doubles whose binary value is their text, and only those', () => {
    for (const x of [0, 3, -7, 1.5, 0.25, -0.375, 1234.0625, 2 ** -20, 9007199254740991]) {
      expect([x, isTextExact(x)]).toEqual([x, true]);
    }
    for (const x of [0.1, 0.3, 1 / 3, 1e-7, 2 ** -40, 2 ** 60, 1e300, NaN, Infinity]) {
      expect([x, isTextExact(x)]).toEqual([x, false]);
    }
  });
});

describe('exactDoubleOp agrees with 64-bit big.Float on every answer it gives', () => {
  const ops: ExactOp[] = ['plus', 'minus', 'mul', 'div'];
  const random = generator(20261125);
  /** Operands of the shapes policies use: small dyadic fractions, decimals, integers, large ones. */
  const operand = (): number => {
    const kind = Math.floor(random() * 4);
    const sign = random() < 0.5 ? -1 : 1;
    if (kind === 0) {
      return sign * Math.floor(random() * 10_000) * 2 ** -Math.floor(random() * 12);
    }
    if (kind === 1) {
      return sign * Number((random() * 1000).toFixed(Math.floor(random() * 4)));
    }
    if (kind === 2) {
      return sign * Math.floor(random() * 1e6);
    }
    return sign * Math.floor(random() * 2 ** 52) * 2 ** -Math.floor(random() * 30);
  };

  it('on 10,000 random pairs, and takes the shortcut on the exact ones', () => {
    let shortcuts = 0;
    for (let i = 0; i < 10_000; i++) {
      const op = ops[i % ops.length];
      const a = operand();
      const b = operand();
      if (!isTextExact(a) || !isTextExact(b)) {
        continue;
      }
      const fast = exactDoubleOp(op, a, b);
      if (fast !== undefined) {
        shortcuts++;
        expect([op, a, b, fast]).toEqual([op, a, b, viaBigFloat(op, a, b)]);
      }
    }
    expect(shortcuts).toBeGreaterThan(2_500);
  });

  it('declines what only big.Float gets right', () => {
    expect(exactDoubleOp('plus', 0.5, 2 ** -24)).toBeUndefined(); // 0.500000059604644775390625
    expect(exactDoubleOp('div', 1, 3)).toBeUndefined();
    expect(exactDoubleOp('mul', 2 ** 30 + 1, 2 ** 30 + 1)).toBeUndefined(); // beyond 2^53
    expect(exactDoubleOp('div', 1, 0)).toBeUndefined();
    expect(exactDoubleOp('mul', 10.5, 1.5)).toBe(15.75);
    expect(exactDoubleOp('div', 7.5, 2.5)).toBe(3);
  });
});
