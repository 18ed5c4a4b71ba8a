import { atomicAtMost, atomicToDecimal, isAbove } from './payment-amounts';

describe('payment amounts (payments.md PY7)', () => {
  it.each<[string, number, string]>([
    ['10000', 6, '0.01'],
    ['1', 6, '0.000001'],
    ['5000000', 6, '5'],
    ['1234567890', 6, '1234.56789'],
    ['0', 6, '0'],
    ['000120', 2, '1.2'],
    ['1000000000000000001', 18, '1.000000000000000001'],
    ['42', 0, '42'],
  ])('should turn %s atomic units of %i decimals into exactly %s', (atomic, decimals, expected) => {
    expect(atomicToDecimal(atomic, decimals)).toBe(expected);
  });

  it('should refuse what is not an amount or a number of decimals', () => {
    expect(() => atomicToDecimal('1.5', 6)).toThrow(RangeError);
    expect(() => atomicToDecimal('-1', 6)).toThrow(RangeError);
    expect(() => atomicToDecimal('1', -1)).toThrow(RangeError);
    expect(() => atomicToDecimal('1', 1.5)).toThrow(RangeError);
  });

  it('should compare decimal amounts exactly, beyond what a float keeps', () => {
    expect(isAbove('5.000001', '5')).toBe(true);
    expect(isAbove('5', '5.0')).toBe(false);
    expect(isAbove('0.1', '0.10000000000000000001')).toBe(false);
    expect(isAbove('1.000000000000000001', '1')).toBe(true);
    expect(atomicAtMost('9007199254740993', '9007199254740992')).toBe(false);
    expect(atomicAtMost('10000', '10000')).toBe(true);
  });
});
