import { createHash } from 'node:crypto';

/** D55, G9: by hop id alone, so replicas, retries and audits agree on which hops were seen. */
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
