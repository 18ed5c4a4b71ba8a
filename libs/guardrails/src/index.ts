export * from './finding';
export * from './mask';
export { PII_TYPES, detectPii } from './pii';
export { detectSecrets } from './secrets';
export { detectPromptInjection } from './injection';

import { Finding } from './finding';
import { detectPii } from './pii';
import { detectPromptInjection } from './injection';
import { detectSecrets } from './secrets';

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
