/** A robust centre and scale: the z denominator of OUTLIER monitors (M21). */
export interface Spread {
  median: number;
  scale: number;
}

function middle(sorted: readonly number[]): number {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/** Median and 1.4826 × MAD of the values; the mean absolute deviation when MAD is 0 (M21). */
export function robustSpread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const median = middle(sorted);
  const deviations = sorted.map((v) => Math.abs(v - median)).sort((a, b) => a - b);
  return scaled(median, middle(deviations), deviations.reduce((s, d) => s + d, 0) / sorted.length);
}

function scaled(median: number, mad: number, meanAbs: number): Spread {
  // More than half the peers share one value: fall back to the mean absolute deviation.
  return { median, scale: mad > 0 ? 1.4826 * mad : 1.2533 * meanAbs };
}

/** The middle of `sorted` with the element at `skip` left out, without copying it. */
function middleWithout(sorted: readonly number[], skip: number): number {
  const at = (k: number): number => sorted[k < skip ? k : k + 1];
  const m = sorted.length - 1;
  return m % 2 ? at((m - 1) / 2) : (at(m / 2 - 1) + at(m / 2)) / 2;
}

function indexOf(sorted: readonly number[], value: number): number {
  let [lo, hi] = [0, sorted.length - 1];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// `robustSpread` of each value's peers (all the others), in O(n log n) rather than one sort per
// value: leaving one value out moves the median to one of at most three values, so the sorted
// deviations are built once per such median and each value's own deviation is skipped by index.
export function leaveOneOutSpreads(values: readonly number[]): Spread[] {
  const sorted = [...values].sort((a, b) => a - b);
  const byMedian = new Map<number, { deviations: number[]; sum: number }>();
  return values.map((value) => {
    const median = middleWithout(sorted, indexOf(sorted, value));
    let entry = byMedian.get(median);
    if (!entry) {
      const deviations = sorted.map((v) => Math.abs(v - median)).sort((a, b) => a - b);
      entry = { deviations, sum: deviations.reduce((s, d) => s + d, 0) };
      byMedian.set(median, entry);
    }
    const own = Math.abs(value - median);
    const mad = middleWithout(entry.deviations, indexOf(entry.deviations, own));
    return scaled(median, mad, (entry.sum - own) / (sorted.length - 1));
  });
}
