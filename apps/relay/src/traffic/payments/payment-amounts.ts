/** USD is kept as a decimal string with at most this many places: every asset's atomic unit fits. */
const SCALE = 36;

/** `atomic` units of an asset with `decimals` places, as an exact decimal string (PY7). */
export function atomicToDecimal(atomic: string, decimals: number): string {
  if (!/^\d+$/.test(atomic)) {
    throw new RangeError(`${atomic} is not an amount in atomic units`);
  }
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > SCALE) {
    throw new RangeError(`${decimals} is not a number of decimals`);
  }
  const digits = atomic.replace(/^0+(?=\d)/, '');
  if (decimals === 0) {
    return digits;
  }
  const padded = digits.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A non-negative decimal string as an integer scaled by 10^SCALE, so two compare exactly. */
function scaled(decimal: string): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match || (match[2]?.length ?? 0) > SCALE) {
    throw new RangeError(`${decimal} is not a decimal amount`);
  }
  return BigInt(match[1] + (match[2] ?? '').padEnd(SCALE, '0'));
}

/** Whether `amount` is above `threshold` (both decimal strings), exactly. */
export function isAbove(amount: string, threshold: string): boolean {
  return scaled(amount) > scaled(threshold);
}

/** Whether `a` is at most `b`, both in atomic units. */
export function atomicAtMost(a: string, b: string): boolean {
  return BigInt(a) <= BigInt(b);
}
