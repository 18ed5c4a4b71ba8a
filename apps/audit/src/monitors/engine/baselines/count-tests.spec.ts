import {
  betaBinomialTail,
  incompleteBeta,
  lnGamma,
  negativeBinomialLower,
  negativeBinomialUpper,
  normalEquivalent,
  normalUpper,
} from './count-tests';

/** A negative binomial this large in size is a Poisson count to many digits. */
const POISSON_SIZE = 1e7;

describe('lnGamma', () => {
  it('should give ln (n − 1)! for whole numbers and ln √π at one half', () => {
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lnGamma(11)).toBeCloseTo(Math.log(3_628_800), 11);
    expect(lnGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
  });
});

describe('incompleteBeta', () => {
  it('should match the polynomial of whole parameters', () => {
    // I_0.3(2, 3) = Σ_{j=2..4} C(4, j) 0.3^j 0.7^(4−j) = 0.2646 + 0.0756 + 0.0081.
    expect(incompleteBeta(0.3, 2, 3)).toBeCloseTo(0.3483, 12);
    expect(incompleteBeta(0, 2, 3)).toBe(0);
    expect(incompleteBeta(1, 2, 3)).toBe(1);
  });
});

describe('negative binomial tails', () => {
  it('should be the Poisson tails when the size is very large', () => {
    // P(X ≥ 15 | 9) = 1 − Σ_{k ≤ 14} e^-9 9^k / k! and P(X ≤ 3 | 9), by the series.
    const poisson = (k: number): number => Math.exp(-9 + k * Math.log(9) - lnGamma(k + 1));
    const upTo = (n: number): number =>
      Array.from({ length: n + 1 }, (_, k) => poisson(k)).reduce((a, b) => a + b, 0);
    expect(negativeBinomialUpper(15, { mean: 9, size: POISSON_SIZE })).toBeCloseTo(1 - upTo(14), 5);
    expect(negativeBinomialLower(3, { mean: 9, size: POISSON_SIZE })).toBeCloseTo(upTo(3), 5);
    expect(upTo(3)).toBeCloseTo(0.02123, 5);
  });

  it('should be the geometric tail when the size is one', () => {
    // Size 1, mean 1: P(X = k) = 2^-(k + 1), so P(X ≥ 2) = 1/4 and P(X ≤ 1) = 3/4.
    expect(negativeBinomialUpper(2, { mean: 1, size: 1 })).toBeCloseTo(0.25, 12);
    expect(negativeBinomialLower(1, { mean: 1, size: 1 })).toBeCloseTo(0.75, 12);
  });

  it('should call 180 events against 9 expected far beyond chance, and 3× on a bursty rate not', () => {
    expect(negativeBinomialUpper(180, { mean: 9, size: POISSON_SIZE })).toBeLessThan(1e-100);
    // Size 2 (a coefficient of variation of 71 %): P(X ≥ 27 | mean 9) is a few per cent.
    expect(negativeBinomialUpper(27, { mean: 9, size: 2 })).toBeGreaterThan(0.01);
  });

  it('should answer the edges without computing', () => {
    expect(negativeBinomialUpper(0, { mean: 5, size: 3 })).toBe(1);
    expect(negativeBinomialUpper(1, { mean: 0, size: 3 })).toBe(0);
    expect(negativeBinomialLower(0, { mean: 0, size: 3 })).toBe(1);
  });
});

describe('betaBinomialTail', () => {
  it('should give 1/4 for all three of three under a uniform share', () => {
    // Beta(1, 1): every count 0..3 has probability 1/4.
    expect(betaBinomialTail(3, { trials: 3, alpha: 1, beta: 1 }, true)).toBeCloseTo(0.25, 12);
    expect(betaBinomialTail(0, { trials: 3, alpha: 1, beta: 1 }, false)).toBeCloseTo(0.25, 12);
  });

  it('should be the binomial tail when the share hardly varies', () => {
    // Binomial(10, ½): P(K ≥ 8) = (45 + 10 + 1) / 1024.
    const dist = { trials: 10, alpha: 5e5, beta: 5e5 };
    expect(betaBinomialTail(8, dist, true)).toBeCloseTo(56 / 1024, 5);
    expect(betaBinomialTail(2, dist, false)).toBeCloseTo(56 / 1024, 5);
  });

  it('should answer 1 from the mean inwards', () => {
    expect(betaBinomialTail(4, { trials: 10, alpha: 1, beta: 1 }, true)).toBe(1);
  });
});

describe('normal tail and its inverse', () => {
  it('should give the familiar tails', () => {
    expect(normalUpper(1.96)).toBeCloseTo(0.025, 5);
    expect(normalUpper(5) / 2.8665157e-7).toBeCloseTo(1, 5);
    expect(normalUpper(-1.96)).toBeCloseTo(0.975, 5);
  });

  it('should turn a tail probability back into standard deviations', () => {
    expect(normalEquivalent(0.025)).toBeCloseTo(1.96, 4);
    expect(normalEquivalent(2.8665157e-7)).toBeCloseTo(5, 4);
    expect(normalEquivalent(0.975)).toBeCloseTo(-1.96, 4);
    expect(normalEquivalent(0)).toBe(40);
  });
});
