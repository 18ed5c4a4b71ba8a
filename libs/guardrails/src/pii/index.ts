import { Finding, Rule, runRules } from '../finding';
import { CONTACT_RULES } from './contact';
import { FINANCIAL_RULES } from './financial';
import { IN_CONTEXT_RULES } from './in-context';
import { NATIONAL_ID_RULES } from './national-ids';

export const PII_TYPES = [
  'EMAIL',
  'PHONE',
  'PAYMENT_CARD',
  'IBAN',
  'US_SSN',
  'IP_ADDRESS',
  'DATE_OF_BIRTH',
  'NATIONAL_ID',
  'PERSON',
  'ADDRESS',
] as const;

// Checksummed identifiers first: where two rules claim one span, the sorter keeps the higher score.
export const PII_RULES: Rule[] = [
  ...FINANCIAL_RULES,
  ...NATIONAL_ID_RULES,
  ...CONTACT_RULES,
  ...IN_CONTEXT_RULES,
];

/** D50 `agp.detect.pii`: personal data in `text`, sorted by start. */
export function detectPii(text: string): Finding[] {
  return runRules(PII_RULES, text);
}
