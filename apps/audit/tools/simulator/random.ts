/** A seeded generator (mulberry32): the same seed writes the same trace. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, maxExclusive: number): number {
    return Math.floor(this.between(min, maxExclusive));
  }

  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Poisson draw: Knuth below 30, a rounded normal above. */
  poisson(lambda: number): number {
    if (lambda <= 0) {
      return 0;
    }
    if (lambda > 30) {
      return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    }
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.next();
    while (p > limit) {
      k += 1;
      p *= this.next();
    }
    return k;
  }

  /** Binomial draw: `trials` draws of probability `p`. */
  binomial(trials: number, p: number): number {
    if (p <= 0) {
      return 0;
    }
    let k = 0;
    for (let i = 0; i < trials; i += 1) {
      if (this.next() < p) {
        k += 1;
      }
    }
    return k;
  }

  /** Gamma draw of the given shape and mean 1 (Marsaglia and Tsang; shape < 1 boosted). */
  gammaMeanOne(shape: number): number {
    if (shape < 1) {
      return this.gammaMeanOne(shape + 1) * ((shape + 1) / shape) * this.next() ** (1 / shape);
    }
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      const x = this.normal();
      const v = (1 + c * x) ** 3;
      if (
        v > 0 &&
        Math.log(Math.max(this.next(), 1e-300)) < x * x * 0.5 + d - d * v + d * Math.log(v)
      ) {
        return (d * v) / shape;
      }
    }
  }

  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 16).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[this.int(0, 4)]}${hex.slice(17, 20)}-${hex.slice(20)}`;
  }
}
