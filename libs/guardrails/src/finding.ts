/** D50: spans in UTF-16 code units, score 0…1; never the matched text, so it can be audited as is. */
export interface Finding {
  type: string;
  start: number;
  end: number;
  score: number;
}

import { Scan, Starts } from './scan';

/** One detection rule: a global regular expression and what a match means. */
export interface Rule {
  type: string;
  /** Must carry the `g` flag; every quantifier bounded (GR2). */
  regex: RegExp;
  /** The capture group whose span is the finding, one that ends the match (default: all of it). */
  group?: number;
  /** Score of a match; validate may refine it, or reject it with 0. */
  score: number;
  validate?: (value: string, text: string, start: number, end: number) => number;
  /** Where a match can start (a superset, ascending): the regex is tried sticky there only (GR25). */
  starts?: Starts;
  /** Digits a match needs within 40 characters of its start: fewer, and the start is skipped. */
  minDigits?: number;
}

/** Inputs beyond this are scanned in their first MAX_SCAN_CHARS only (GR2: bounded cost per call). */
export const MAX_SCAN_CHARS = 1_048_576;

const stickyCopies = new WeakMap<RegExp, RegExp>();

function sticky(regex: RegExp): RegExp {
  let copy = stickyCopies.get(regex);
  if (!copy) {
    copy = new RegExp(regex.source, regex.flags.replace('g', '') + 'y');
    stickyCopies.set(regex, copy);
  }
  return copy;
}

/** GR25: `matchAll`'s matches, as long as none can start outside `starts`. */
export function matchesAt(
  regex: RegExp,
  text: string,
  starts: readonly number[] | null,
): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  if (starts === null) {
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m; m = regex.exec(text)) {
      out.push(m);
      if (m[0] === '') {
        regex.lastIndex += 1;
      }
    }
    return out;
  }
  const at = sticky(regex);
  let from = 0;
  for (const start of starts) {
    if (start < from) {
      continue;
    }
    at.lastIndex = start;
    const m = at.exec(text);
    if (m) {
      from = start + Math.max(1, m[0].length);
      out.push(m);
    }
  }
  return out;
}

function withDigits(scan: Scan, starts: number[] | null, min: number | undefined): number[] | null {
  return starts && min ? starts.filter((at) => scan.digitsNear(at) >= min) : starts;
}

/** Runs the rules over `text`; findings sorted by start and merged (GR6 merges secrets itself). */
export function runRules(rules: readonly Rule[], text: string | Scan, merge = true): Finding[] {
  const scan =
    typeof text === 'string'
      ? new Scan(text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text)
      : text;
  const input = scan.text;
  const found: Finding[] = [];
  for (const rule of rules) {
    rule.regex.lastIndex = 0;
    const matches = rule.starts
      ? matchesAt(rule.regex, input, withDigits(scan, rule.starts(scan), rule.minDigits))
      : input.matchAll(rule.regex);
    for (const m of matches) {
      // The group ends the match, so its span needs no `d` flag (whose indices cost every match).
      const end = m.index + m[0].length;
      const start = rule.group === undefined ? m.index : end - m[rule.group].length;
      const score = rule.validate
        ? rule.validate(input.slice(start, end), input, start, end)
        : rule.score;
      if (score > 0) {
        found.push({ type: rule.type, start, end, score: Math.min(1, score) });
      }
    }
  }
  return merge ? sortAndMerge(found) : found;
}

function overlapping(out: Finding[], f: Finding): Finding | undefined {
  for (let i = out.length - 1; i >= Math.max(0, out.length - 4); i -= 1) {
    if (f.start < out[i].end && out[i].start < f.end) {
      return out[i];
    }
  }
  return undefined;
}

export function sortAndMerge(found: Finding[]): Finding[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Finding[] = [];
  for (const f of found) {
    // Sorted by start: an overlap can only be with one of the last few kept (bounded, GR2).
    const kept = overlapping(out, f);
    if (!kept) {
      out.push(f);
    } else if (kept.type === f.type) {
      kept.end = Math.max(kept.end, f.end);
      kept.score = Math.max(kept.score, f.score);
    } else if (f.score > kept.score) {
      Object.assign(kept, f);
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
