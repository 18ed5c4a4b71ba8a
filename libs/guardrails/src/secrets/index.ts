import { Finding, MAX_SCAN_CHARS, runRules, sortAndMerge } from '../finding';
import { PREFIXED_RULES } from './prefixed';
import { STRUCTURED_RULES, privateKeys } from './structured';

// Issuer-specific rules come first so a key found by its prefix is not reported again as generic.
export const SECRET_RULES = [...PREFIXED_RULES, ...STRUCTURED_RULES];

/** Whether a span overlaps one of `sorted` (by start), given the running maximum of their ends. */
function overlapsAny(sorted: Finding[], maxEnd: number[], f: Finding): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid].start < f.end) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo > 0 && maxEnd[lo - 1] > f.start;
}

/** D50 `agp.detect.secrets`: credentials in `text`, sorted by start. */
export function detectSecrets(text: string): Finding[] {
  const input = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const all = [...runRules(SECRET_RULES, input, false), ...privateKeys(input)];
  const specific = all.filter((f) => f.type !== 'GENERIC_SECRET');
  const byStart = [...specific].sort((a, b) => a.start - b.start);
  const maxEnd: number[] = [];
  for (const s of byStart) {
    maxEnd.push(Math.max(s.end, maxEnd[maxEnd.length - 1] ?? 0));
  }
  // A generic assignment is reported only where no issuer-specific rule claimed the value; a
  // binary search over the specific spans keeps this linear-logarithmic (GR2).
  return sortAndMerge([
    ...specific,
    ...all.filter((f) => f.type === 'GENERIC_SECRET' && !overlapsAny(byStart, maxEnd, f)),
  ]);
}
