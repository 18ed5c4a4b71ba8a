/**
 * One text under scan, with what several rules of an engine need from it computed once (GR25): its
 * lower-cased copy (same length, so positions carry over) and trigger positions shared by key.
 */
export class Scan {
  private lowered?: string;
  private readonly shared = new Map<object, number[]>();

  constructor(readonly text: string) {}

  get lower(): string {
    this.lowered ??= lowerKeepingPositions(this.text);
    return this.lowered;
  }

  /** `find`'s positions, computed once per text for every rule that passes the same `key`. */
  positions(key: object, find: (scan: Scan) => number[]): number[] {
    let found = this.shared.get(key);
    if (!found) {
      found = find(this);
      this.shared.set(key, found);
    }
    return found;
  }
}

/** Where a rule's match can start, ascending; the rule's regex is then tried there only (GR25). */
export type Starts = (scan: Scan) => number[];

/** `toLowerCase` unless a character grows (`İ`), then character by character so spans stay put. */
function lowerKeepingPositions(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) {
    return lower;
  }
  return text.replace(/[^]/g, (ch) => {
    const l = ch.toLowerCase();
    return l.length === 1 ? l : ch;
  });
}

/** Every match index of `trigger` (a global regex) in the text or its lower-cased copy. */
export function triggerStarts(trigger: RegExp, on: 'text' | 'lower' = 'text'): Starts {
  const find = (scan: Scan): number[] => {
    const text = on === 'lower' ? scan.lower : scan.text;
    const out: number[] = [];
    trigger.lastIndex = 0;
    for (let m = trigger.exec(text); m; m = trigger.exec(text)) {
      out.push(m.index);
      // From the next character, not the match's end: a trigger inside another is a start too.
      trigger.lastIndex = m.index + 1;
    }
    return out;
  };
  return (scan) => scan.positions(trigger, find);
}

/** Ascending, without repeats: the union of several sources of starts. */
export function unionStarts(...sources: Starts[]): Starts {
  const merge = (scan: Scan): number[] => {
    const all = sources.flatMap((s) => s(scan)).sort((a, b) => a - b);
    return all.filter((p, i) => i === 0 || p !== all[i - 1]);
  };
  return (scan) => scan.positions(merge, merge);
}

const WORD = 1;
const DIGIT = 2;
const SIGN = 4;
const PHONE_BEFORE = 8;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c += 1) {
  const ch = String.fromCharCode(c);
  CLASS[c] =
    (/\w/.test(ch) ? WORD | PHONE_BEFORE : 0) |
    (/\d/.test(ch) ? DIGIT : 0) |
    (ch === '+' || ch === '(' ? SIGN : 0) |
    (/[+.\-/]/.test(ch) ? PHONE_BEFORE : 0);
}
const classOf = (c: number): number => (c < 128 ? CLASS[c] : 0);

/** Positions of a character of `kinds` not preceded by one of `notAfter` (a loop, no regex). */
function classStarts(kinds: number, notAfter: number): Starts {
  const find = (scan: Scan): number[] => {
    const text = scan.text;
    const out: number[] = [];
    let prev = 0;
    for (let i = 0; i < text.length; i += 1) {
      const k = classOf(text.charCodeAt(i));
      if (k & kinds && !(prev & notAfter)) {
        out.push(i);
      }
      prev = k;
    }
    return out;
  };
  return (scan) => scan.positions(find, find);
}

/** A digit no letter, digit or underscore precedes: where every numeric identifier starts. */
export const NUMBER_STARTS = classStarts(DIGIT, WORD);
/** A digit, `+` or `(` after none of `[\w+.\-/]`: where a phone number can start. */
export const PHONE_STARTS = classStarts(DIGIT | SIGN, PHONE_BEFORE);
