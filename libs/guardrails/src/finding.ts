/** D50: spans in UTF-16 code units, score 0…1; never the matched text, so it can be audited as is. */
export interface Finding {
  type: string;
  start: number;
  end: number;
  score: number;
}

/** One detection rule: a global regular expression and what a match means. */
export interface Rule {
  type: string;
  /** Must carry the `g` flag (and `d` when `group` is set); every quantifier bounded (GR2). */
  regex: RegExp;
  /** The capture group whose span is the finding (default: the whole match). */
  group?: number;
  /** Score of a match; validate may refine it, or reject it with 0. */
  score: number;
  validate?: (value: string, text: string, start: number, end: number) => number;
  /** A literal the rule needs: most texts skip most rules for one Boyer-Moore search (GR2). */
  gate?: RegExp;
}

/** Inputs beyond this are scanned in their first MAX_SCAN_CHARS only (GR2: bounded cost per call). */
export const MAX_SCAN_CHARS = 1_048_576;

/** Runs the rules over `text`; findings sorted by start and merged (GR6 merges secrets itself). */
export function runRules(rules: readonly Rule[], text: string, merge = true): Finding[] {
  const input = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const found: Finding[] = [];
  for (const rule of rules) {
    if (rule.gate && !rule.gate.test(input)) {
      continue;
    }
    rule.regex.lastIndex = 0;
    for (const m of input.matchAll(rule.regex)) {
      const span = rule.group === undefined ? undefined : m.indices?.[rule.group];
      const start = span ? span[0] : m.index;
      const end = span ? span[1] : m.index + m[0].length;
      const value = input.slice(start, end);
      const score = rule.validate ? rule.validate(value, input, start, end) : rule.score;
      if (score > 0) {
        found.push({ type: rule.type, start, end, score: Math.min(1, score) });
      }
    }
  }
  return merge ? sortAndMerge(found) : found;
}

export function sortAndMerge(found: Finding[]): Finding[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  for (const f of found) {
    // Sorted by start: an overlap can only be with one of the last few kept (bounded, GR2).
    const overlapping = out
      .slice(-4)
      .reverse()
      .find((o) => f.start < o.end && o.start < f.end);
    if (!overlapping) {
      out.push(f);
    } else if (overlapping.type === f.type) {
      overlapping.end = Math.max(overlapping.end, f.end);
      overlapping.score = Math.max(overlapping.score, f.score);
    } else if (f.score > overlapping.score) {
      Object.assign(overlapping, f);
    }
  }
  return out;
}

/** Lower-cased text of up to `width` characters before `start`, for context words. */
export function before(text: string, start: number, width: number): string {
  return text.slice(Math.max(0, start - width), start).toLowerCase();
}

export function after(text: string, end: number, width: number): string {
  return text.slice(end, end + width).toLowerCase();
}
