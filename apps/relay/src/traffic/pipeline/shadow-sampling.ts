import { createHash } from 'node:crypto';

/**
 * D55 (governance.md G9): whether a SHADOW binding sees this hop at the tenant's
 * `shadowSampleRate`. Decided by the hop's id alone, so every replica, a retry of the judgement
 * and a later audit all agree on which hops were seen, and the share converges on the rate.
 */
export function isSampled(hopId: string, rate: number): boolean {
  if (rate >= 1) {
    return true;
  }
  if (rate <= 0) {
    return false;
  }
  const digest = createHash('sha256').update(hopId).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48 < rate;
}
