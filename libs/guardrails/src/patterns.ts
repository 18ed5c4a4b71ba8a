import { setFlagsFromString } from 'node:v8';

import { Finding, MAX_SCAN_CHARS, sortAndMerge } from './finding';

/** D53: a tenant's pattern as its set holds it. */
export interface TenantPattern {
  label: string;
  pattern: string;
  flags?: string;
}

export type CompiledPattern =
  | {
      ok: true;
      regex: RegExp;
      /** GR18: a literal every match begins with: a text without it is not scanned at all. */
      literal?: string;
    }
  | { ok: false; reason: string };

export const MAX_PATTERN_CHARS = 1_000;
const ALLOWED_FLAGS = /^[ms]*$/;

let linearEngine = false;
/** V8's linear-time engine (GR13), unknown to the linter's RegExp checks. */
const LINEAR_FLAG = 'l';

/**
 * GR13: tenants' patterns run on V8's linear-time engine (`l` flag), so `(a|aa)+b` cannot take
 * seconds; its refusals (back-references, look-around, `i`/`u`/`d`) are D53's 400 reasons.
 */
export function compileLinear(pattern: string, flags = ''): CompiledPattern {
  if (pattern.length === 0 || pattern.length > MAX_PATTERN_CHARS) {
    return { ok: false, reason: `pattern must be 1 to ${MAX_PATTERN_CHARS} characters` };
  }
  if (!ALLOWED_FLAGS.test(flags)) {
    return {
      ok: false,
      reason:
        'flags may only be m and s: the linear-time engine has no case-insensitive or Unicode mode (write [Aa] for either case)',
    };
  }
  enableLinearEngine();
  try {
    const literal = leadingLiteral(pattern);
    return { ok: true, regex: new RegExp(pattern, `g${flags}l`), ...(literal ? { literal } : {}) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: message.includes('linear time')
        ? 'the pattern needs backtracking (back-references or look-around), which the linear-time engine refuses'
        : message,
    };
  }
}

const META = new Set([...'\\^$.|?*+()[]{}']);
const QUANTIFIER = new Set([...'?*+{']);

/**
 * The literal characters a pattern starts with, when every match must start with them: none when
 * the pattern has an alternative anywhere (`a|b`), and a character a quantifier follows is not
 * required. V8's linear engine has no literal prefilter of its own (GR18, BENCHMARKS.md).
 */
export function leadingLiteral(pattern: string): string | undefined {
  if (pattern.includes('|')) {
    return undefined;
  }
  const chars: string[] = [];
  let i = 0;
  while (i < pattern.length) {
    let char = pattern[i];
    let width = 1;
    if (char === '\\') {
      const escaped = pattern[i + 1];
      if (escaped === undefined || /[A-Za-z0-9]/.test(escaped)) {
        break;
      }
      char = escaped;
      width = 2;
    } else if (META.has(char)) {
      break;
    }
    if (QUANTIFIER.has(pattern[i + width])) {
      break;
    }
    chars.push(char);
    i += width;
  }
  return chars.length >= 2 ? chars.join('') : undefined;
}

function enableLinearEngine(): void {
  if (!linearEngine) {
    // Before the first compile; it only adds the `l` flag and changes no other expression.
    setFlagsFromString('--enable-experimental-regexp-engine');
    linearEngine = true;
  }
}

/**
 * GR20: a JSON Schema `pattern` of someone else's schema on the linear-time engine (no `g`, so
 * `test` keeps no state); throws what the engine refuses, which makes that schema uncheckable.
 */
export function linearRegExp(pattern: string): RegExp {
  enableLinearEngine();
  return new RegExp(pattern, LINEAR_FLAG);
}

/** D50 `agp.detect.patterns`: every match of a tenant's compiled patterns, labelled by its pattern. */
export function detectPatterns(
  text: string,
  patterns: readonly { label: string; regex: RegExp }[],
): Finding[] {
  const input = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const found: Finding[] = [];
  for (const { label, regex } of patterns) {
    regex.lastIndex = 0;
    for (const m of input.matchAll(regex)) {
      if (m[0].length > 0) {
        found.push({ type: label, start: m.index, end: m.index + m[0].length, score: 1 });
      }
    }
  }
  return sortAndMerge(found);
}

/** D53 `mode`: DETECT reports a match; MUST_NOT_MATCH says the text must not contain one (GR16). */
export type PatternMode = 'DETECT' | 'MUST_NOT_MATCH';

/** A tenant's pattern compiled for its set (D53). */
export interface CompiledSetPattern {
  label: string;
  regex: RegExp;
  mode: PatternMode;
  /** compileLinear's `literal`: a text without it cannot match. */
  literal?: string;
}

export interface PatternSetFinding extends Finding {
  mode: PatternMode;
}

/**
 * GR16: every match of every pattern of one set, sorted by start, each with its pattern's mode.
 * Unlike `detectPatterns`, overlapping matches of two labels are both kept: each pattern is the
 * tenant's own statement, and a policy asks for labels, not for the best of them.
 */
export function detectPatternSet(
  text: string,
  patterns: readonly CompiledSetPattern[],
): PatternSetFinding[] {
  const input = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const found: PatternSetFinding[] = [];
  for (const { label, regex, mode, literal } of patterns) {
    if (literal !== undefined && !input.includes(literal)) {
      continue;
    }
    regex.lastIndex = 0;
    for (const m of input.matchAll(regex)) {
      if (m[0].length > 0) {
        found.push({ type: label, start: m.index, end: m.index + m[0].length, score: 1, mode });
      }
    }
  }
  return found.sort((a, b) => a.start - b.start || a.end - b.end);
}
