import { entropy } from '../checksums';

const PLACEHOLDER =
  /example|sample|dummy|fake|placeholder|redacted|changeme|your[_-]?|<[^>]{0,40}>|\$\{|\{\{|%s|x{4,}|X{4,}|\*{3,}|\.{3}|0{8,}|1234567|abcdef(?:gh|12)/i;

/** GR6: example keys (`…EXAMPLE`, `xxxx`) are skipped so docs and tests do not flood the audit. */
export function looksLikePlaceholder(value: string, minEntropy = 2.5): boolean {
  return PLACEHOLDER.test(value) || entropy(value) < minEntropy;
}
