import { Finding } from './finding';

/** GR8: the relay's `[MASKED:<type>]` form. Findings sorted by start; overlaps keep the first. */
export function maskFindings(text: string, findings: readonly Finding[]): string {
  let out = '';
  let at = 0;
  for (const f of findings) {
    if (f.start < at) {
      continue;
    }
    out += `${text.slice(at, f.start)}[MASKED:${f.type}]`;
    at = f.end;
  }
  return out + text.slice(at);
}

/** How many findings of each type: what the audit records instead of the matched text (GR9). */
export function countByType(findings: readonly Finding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of findings) {
    counts[f.type] = (counts[f.type] ?? 0) + 1;
  }
  return counts;
}
