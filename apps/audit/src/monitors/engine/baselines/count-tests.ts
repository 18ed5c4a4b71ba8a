// M17: tail probabilities of counts, so a detector asks "how unlikely is this count under the
// subject's own baseline?" instead of comparing with fixed ratios and volume floors.

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 significant digits). */
export function lnGamma(x: number): number {
  if (x < 0.5) {
    // Reflection keeps the series in its accurate range.
    return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  }
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  const z = x - 1;
  let sum = c[0] ?? 0;
  for (let i = 1; i < 9; i += 1) {
    sum += (c[i] ?? 0) / (z + i);
  }
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 20_000; m += 1) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    c = 1 + aa / c;
    c = Math.abs(c) < tiny ? tiny : c;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    c = 1 + aa / c;
    c = Math.abs(c) < tiny ? tiny : c;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) {
      break;
    }
  }
  return h;
}

export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) {
    return 0;
  }
  if (x >= 1) {
    return 1;
  }
  const front = Math.exp(
    lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x),
  );
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(a, b, x)) / a
    : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

// A negative binomial count of mean `mean` and size `size` (variance mean + mean² / size: a Poisson
// count whose rate varies with a squared coefficient of variation 1 / size).
export interface NegativeBinomial {
  mean: number;
  size: number;
}

export function negativeBinomialUpper(x: number, { mean, size }: NegativeBinomial): number {
  if (x <= 0) {
    return 1;
  }
  if (mean <= 0) {
    return 0;
  }
  return incompleteBeta(mean / (mean + size), x, size);
}

export function negativeBinomialLower(x: number, { mean, size }: NegativeBinomial): number {
  if (x < 0) {
    return 0;
  }
  if (mean <= 0) {
    return 1;
  }
  return incompleteBeta(size / (mean + size), size, x + 1);
}

export interface BetaBinomial {
  trials: number;
  alpha: number;
  beta: number;
}

function lnBetaBinomialPmf(k: number, { trials, alpha, beta }: BetaBinomial): number {
  return (
    lnGamma(trials + 1) -
    lnGamma(k + 1) -
    lnGamma(trials - k + 1) +
    lnGamma(k + alpha) +
    lnGamma(trials - k + beta) -
    lnGamma(trials + alpha + beta) -
    (lnGamma(alpha) + lnGamma(beta) - lnGamma(alpha + beta))
  );
}

/** Only small tails matter here: from the mean inwards the answer is taken as 1. */
export function betaBinomialTail(k: number, dist: BetaBinomial, upper: boolean): number {
  const { trials, alpha, beta } = dist;
  if (upper ? k <= 0 : k >= trials) {
    return 1;
  }
  if (upper ? k > trials : k < 0) {
    return 0;
  }
  const mean = (trials * alpha) / (alpha + beta);
  if (upper ? k <= mean : k >= mean) {
    return 1;
  }
  let term = Math.exp(lnBetaBinomialPmf(k, dist));
  let sum = term;
  for (let j = k; upper ? j < trials : j > 0; j += upper ? 1 : -1) {
    // pmf(j + 1) / pmf(j) = (n − j)(j + α) / ((j + 1)(n − j − 1 + β)), and its inverse downwards.
    term *= upper
      ? ((trials - j) * (j + alpha)) / ((j + 1) * (trials - j - 1 + beta))
      : (j * (trials - j + beta)) / ((trials - j + 1) * (j - 1 + alpha));
    sum += term;
    if (term < sum * 1e-16) {
      break;
    }
  }
  return Math.min(1, sum);
}

/** P(Z ≥ z) of a standard normal (complementary error function, relative error below 1.2e-7). */
export function normalUpper(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

// The z of a standard normal with P(Z ≥ z) = p (Acklam's rational approximation, then one Newton
// step), so a tail probability reads as the familiar "standard deviations away".
export function normalEquivalent(p: number): number {
  if (p <= 0) {
    return 40;
  }
  if (p >= 1) {
    return -40;
  }
  const lower = p > 0.5 ? 1 - p : p;
  const q = Math.sqrt(-2 * Math.log(lower));
  const c = [-7.784894002430293e-3, -0.3223964580411365, -2.400758277161838, -2.549732539343734];
  const c4 = 4.374664141464968;
  const c5 = 2.938163982698783;
  const d = [7.784695709041462e-3, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail =
    (((((c[0] ?? 0) * q + (c[1] ?? 0)) * q + (c[2] ?? 0)) * q + (c[3] ?? 0)) * q + c4) * q + c5;
  const den = (((d[0] ?? 0) * q + (d[1] ?? 0)) * q + (d[2] ?? 0)) * q + (d[3] ?? 0);
  let z = -(tail / (den * q + 1));
  if (lower > 0.02425) {
    const r = lower - 0.5;
    const s = r * r;
    const a = [
      -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2,
      -3.066479806614716e1, 2.506628277459239,
    ];
    const b = [
      -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1,
      -1.328068155288572e1,
    ];
    const num =
      (((((a[0] ?? 0) * s + (a[1] ?? 0)) * s + (a[2] ?? 0)) * s + (a[3] ?? 0)) * s + (a[4] ?? 0)) *
        s +
      (a[5] ?? 0);
    const dn =
      ((((b[0] ?? 0) * s + (b[1] ?? 0)) * s + (b[2] ?? 0)) * s + (b[3] ?? 0)) * s + (b[4] ?? 0);
    z = -((num * r) / (dn * s + 1));
  }
  // z is now the upper quantile of `lower`; one Newton step on P(Z ≥ z) = lower.
  const density = Math.exp(-(z * z) / 2) / Math.sqrt(2 * Math.PI);
  if (density > 0) {
    z += (normalUpper(z) - lower) / density;
  }
  return Math.min(40, Math.max(-40, p > 0.5 ? -z : z));
}
