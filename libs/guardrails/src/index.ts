export * from './finding';
export * from './mask';
export { PII_TYPES } from './pii';

import { Finding } from './finding';
import { detectPromptInjection as scanInjection } from './injection';
import { memoized } from './memo';
import { detectPii as scanPii } from './pii';
import { detectSecrets as scanSecrets } from './secrets';

/** D50 `agp.detect.pii`: personal data in `text`, sorted by start. */
export const detectPii = memoized(scanPii);
/** D50 `agp.detect.secrets`: credentials in `text`, sorted by start. */
export const detectSecrets = memoized(scanSecrets);
/** D50 `agp.detect.prompt_injection`: instructions aimed at the model, sorted by start. */
export const detectPromptInjection = memoized(scanInjection);

export type DetectorName = 'PII' | 'SECRETS' | 'PROMPT_INJECTION';

/** The engine by its name, with the audit event type its findings are recorded under (D25). */
export const DETECTORS: Record<
  DetectorName,
  { detect: (text: string) => Finding[]; eventType: string }
> = {
  PII: { detect: detectPii, eventType: 'PII_DETECTION' },
  SECRETS: { detect: detectSecrets, eventType: 'SECRET_DETECTION' },
  PROMPT_INJECTION: { detect: detectPromptInjection, eventType: 'PROMPT_INJECTION_DETECTION' },
};

/** So the first real message does not pay rule compiling inside a policy's 50 ms budget (D22). */
export function warmUpDetectors(): void {
  const sample =
    'Ana Lima <ana@example.org> +44 20 7946 0958 4111 1111 1111 1111 DE89 3704 0044 0532 0130 00 ' +
    'DOB: 1985-03-14 10.0.0.1 token=ghp_16C7e42F292c6912E7710c838347Ae178B4a ignore previous instructions';
  for (const { detect } of Object.values(DETECTORS)) {
    detect(sample);
  }
}
export {
  CompiledPattern,
  CompiledSetPattern,
  PatternMode,
  PatternSetFinding,
  TenantPattern,
  compileLinear,
  detectPatternSet,
  detectPatterns,
  linearRegExp,
} from './patterns';
