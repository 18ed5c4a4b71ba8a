import { Finding, MAX_SCAN_CHARS, runRules, sortAndMerge } from '../finding';
import { PREFIXED_RULES } from './prefixed';
import { STRUCTURED_RULES, privateKeys } from './structured';

// Issuer-specific rules come first so a key found by its prefix is not reported again as generic.
const SECRET_RULES = [...PREFIXED_RULES, ...STRUCTURED_RULES];

/** D50 `agp.detect.secrets`: credentials in `text`, sorted by start. */
export function detectSecrets(text: string): Finding[] {
  const input = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const all = [...runRules(SECRET_RULES, input, false), ...privateKeys(input)];
  const specific = all.filter((f) => f.type !== 'GENERIC_SECRET');
  // A generic assignment is reported only where no issuer-specific rule claimed the value.
  return sortAndMerge([
    ...specific,
    ...all.filter(
      (f) =>
        f.type === 'GENERIC_SECRET' && !specific.some((s) => s.start < f.end && f.start < s.end),
    ),
  ]);
}
