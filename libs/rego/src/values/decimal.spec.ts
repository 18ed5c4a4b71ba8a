import { compilePolicy } from '../policy';
import { BigNum, compareAnyNum, numberFromText } from './decimal';
import { binText, toBinFloat } from './big-float';
import { jsonText } from './json';
import { RegoObject, RegoSet } from './value';

/** Value of `p` in a one-rule module. */
function value(expr: string): unknown {
  const policy = compilePolicy({ 'n.rego': `package n\n\np := ${expr}\n` });
  return policy.evaluateValue('data.n.p', {});
}

function text(expr: string): unknown {
  return value(`sprintf("%v", [${expr}])`);
}

describe('numberFromText (one representation per value, as OPA keeps json.Number)', () => {
  it('keeps integers exact and non-integers as the double of the same text', () => {
    expect(numberFromText('12345678901234567890')).toBe(12345678901234567890n);
    expect(numberFromText('7')).toBe(7);
    expect(numberFromText('0.1')).toBe(0.1);
    expect(numberFromText('-2.5')).toBe(-2.5);
  });

  it('keeps the text of a number written other than as its shortest form (json.Number)', () => {
    for (const t of ['10.00', '1.5e3', '1.0', '2.50', '0.10', '1e3']) {
      const n = numberFromText(t);
      expect(n).toBeInstanceOf(BigNum);
      expect((n as BigNum).text).toBe(t);
    }
  });

  it('keeps a BigNum where no double denotes the text', () => {
    for (const t of ['1e-400', '0.1234567890123456789', '1e400', '2e308', '1e30']) {
      const n = numberFromText(t);
      expect(n).toBeInstanceOf(BigNum);
      expect((n as BigNum).text).toBe(t);
    }
  });

  it('compares by the value denoted', () => {
    const cmp = (a: string, b: string) => compareAnyNum(numberFromText(a), numberFromText(b));
    expect(cmp('1e-400', '0')).toBe(1);
    expect(cmp('1e400', '1e399')).toBe(1);
    expect(cmp('0.1234567890123456789', '0.1234567890123456788')).toBe(1);
    expect(cmp('0.1', '0.1000000000000000000001')).toBe(-1);
    expect(cmp('1e30', '1000000000000000000000000000000')).toBe(0);
    expect(cmp('-1e-400', '-1e-401')).toBe(-1);
  });
});

describe("Go's big.Float at 64 bits (OPA's arithmetic on non-integers)", () => {
  it('prints the shortest text that rounds back at 64 bits', () => {
    expect(binText(toBinFloat(0.5))).toBe('0.5');
    expect(binText(toBinFloat(numberFromText('1e400')))).toBe('1' + '0'.repeat(400));
    expect(binText(toBinFloat(numberFromText('1.5e-7')))).toBe('1.5e-07');
    expect(binText(toBinFloat(1234567.5))).toBe('1.2345675e+06');
  });
});

describe('arithmetic and comparison in policies', () => {
  it('adds decimals at 64-bit precision, not as doubles', () => {
    expect(value('0.1 + 0.2')).toBe(0.3);
    expect(value('0.1 * 3')).toBe(0.3);
    expect(value('1.15 * 100')).toBe(115);
    expect(text('1 / 3')).toBe('0.3333333333333333');
    expect(jsonText(value('1 / 3') as BigNum)).toBe('0.33333333333333333334');
    expect(jsonText(value('0.3 - 0.1') as BigNum)).toBe('0.20000000000000000002');
    expect(jsonText(value('2 / 3') as BigNum)).toBe('0.6666666666666666667');
    expect(value('1.1 * 1.1')).toBe(1.21);
    expect(value('3.3 / 3')).toBe(1.1);
    expect(value('0.1 + 0.7')).toBe(0.8);
  });

  it('is exact on integers beyond 2^53', () => {
    expect(value('12345678901234567890 + 1')).toBe(12345678901234567891n);
    expect(value('12345678901234567890 < 12345678901234567891')).toBe(true);
    expect(value('9007199254740993 == 9007199254740992')).toBe(false);
    expect(text('1e30 + 1')).toBe('1000000000000000000000000000001');
    expect(value('numbers.range(12345678901234567890, 12345678901234567892)')).toEqual([
      12345678901234567890n,
      12345678901234567891n,
      12345678901234567892n,
    ]);
  });

  it('prints a number as OPA sprintf does from its text', () => {
    expect(value('sprintf("hi %v", [2e308])')).toBe('hi 2e308');
    expect(text('1e30')).toBe('1e+30');
    expect(text('10.00')).toBe('10');
    expect(text('1e-400')).toBe('0');
  });

  it('treats equal decimals as one set member and object key', () => {
    const s = value('{0.1234567890123456789, 1234567890123456789e-19, 1e-400}') as RegoSet;
    expect(s.size).toBe(2);
    const o = value('{1e30: "a"}') as RegoObject;
    expect(o.get(10n ** 30n)).toBe('a');
    expect(value('1e-400 in {1e-400}')).toBe(true);
    expect(value('{1e30: "a"}[1000000000000000000000000000000]')).toBe('a');
  });

  it('marshals a literal as its text, as OPA marshals a json.Number (topdown/encoding.go)', () => {
    expect(value('json.marshal([1.0, 2.50, 1e3, 0.1, 7])')).toBe('[1.0,2.50,1e3,0.1,7]');
    expect(value('json.marshal(to_number("1.0"))')).toBe('1.0');
    expect(value('json.marshal(1.0 + 1)')).toBe('2');
    // A computed number is its value: Go's text of the result (1.05893234625e+08) is not kept.
    expect(value('106208904.625 - 315670')).toBe(105893234.625);
    expect(value('json.marshal({"a": 1.0})')).toBe('{"a":1.0}');
  });

  it('treats a number by its value whatever its text', () => {
    expect(value('1.0 == 1')).toBe(true);
    expect((value('{1.0, 1, 2.50, 2.5}') as RegoSet).size).toBe(2);
    expect(value('{2.50: "a"}[2.5]')).toBe('a');
    expect(value('[x | some x in [1.0, 2]; x > 1]')).toEqual([2]);
    expect(value('count({1.0: "a", 1: "b"})')).toBe(1);
  });

  it('passes a float-texted whole number to sprintf as Go float64 (topdown/strings.go)', () => {
    expect(value('sprintf("%v %v %d", [1.0, 1, 1])')).toBe('1 1 1');
    expect(value('sprintf("%d", [1.0])')).toBe('%!d(float64=1)');
    expect(value('sprintf("%.1f|%s", [1.0, 2e0])')).toBe('1.0|%!s(float64=2)');
    expect(value('format_int(1.0, 10)')).toBe('1');
    // An integer is Go's int (%f refuses it); booleans and null reach Go as their text.
    expect(value('sprintf("%.2f|%e|%.2f", [1, 2, 1.5])')).toBe('%!f(int=1)|%!e(int=2)|1.50');
    expect(value('sprintf("%t|%v|%d", [true, null, 123456789123456789123])')).toBe(
      '%!t(string=true)|null|123456789123456789123',
    );
  });

  it('refuses a float-texted operand where OPA wants an integer (builtins.IntOperand)', () => {
    // A built-in error makes the expression undefined when strict built-in errors are off.
    expect(value('numbers.range(1.0, 3)')).toBeUndefined();
    expect(value('numbers.range(1, 3)')).toEqual([1, 2, 3]);
  });

  it('marshals a number as its text and reads json back exactly', () => {
    expect(value('json.marshal([1e400, 12345678901234567890])')).toBe(
      '[1e400,12345678901234567890]',
    );
    expect(value('to_number("0.1234567890123456789") > to_number("0.1234567890123456788")')).toBe(
      true,
    );
  });

  it('sums decimals in one 64-bit accumulator and rounds BigNums like big.Float', () => {
    expect(value('sum([0.1, 0.2])')).toBe(0.3);
    expect(value('floor(1e-400)')).toBe(0);
    expect(value('ceil(1e-400)')).toBe(1);
    expect(value('round(-0.5000000000000000001)')).toBe(-1);
  });
});
