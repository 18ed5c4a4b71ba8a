import { formatPico, parseDecimal, picoOfNumeric, trimDecimal } from './usd';

describe('usd', () => {
  it('should parse decimal strings into exact pico-dollars and format them back', () => {
    expect(parseDecimal('0.15')).toBe(150_000_000_000n);
    expect(parseDecimal('2')).toBe(2_000_000_000_000n);
    expect(formatPico(parseDecimal('0.000000000001')!)).toBe('0.000000000001');
    expect(formatPico(parseDecimal('10.100')!)).toBe('10.1');
    expect(formatPico(0n)).toBe('0');
    expect(formatPico(-1_500_000_000_000n)).toBe('-1.5');
  });

  it('should refuse what is not a plain non-negative decimal or has too many decimals', () => {
    expect(parseDecimal('-1')).toBeUndefined();
    expect(parseDecimal('1e3')).toBeUndefined();
    expect(parseDecimal('01')).toBeUndefined();
    expect(parseDecimal('1.')).toBeUndefined();
    expect(parseDecimal('0.1234567', 6)).toBeUndefined();
    expect(parseDecimal('0.123456', 6)).toBe(123_456_000_000n);
  });

  it('should not drift where floats do', () => {
    const tenth = parseDecimal('0.1')!;
    expect(formatPico(tenth + parseDecimal('0.2')!)).toBe('0.3');
    expect(picoOfNumeric('12.500000000000')).toBe(12_500_000_000_000n);
    expect(picoOfNumeric('-0.5')).toBe(-500_000_000_000n);
    expect(picoOfNumeric(null)).toBe(0n);
  });
});

describe('trimDecimal', () => {
  it('should answer a numeric as its shortest decimal', () => {
    expect(trimDecimal('2.500000')).toBe('2.5');
    expect(trimDecimal('4.000000')).toBe('4');
    expect(trimDecimal('10')).toBe('10');
    expect(trimDecimal('0.004000000000')).toBe('0.004');
  });
});
