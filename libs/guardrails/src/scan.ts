/**
 * One text under scan, with what several rules of an engine need from it computed once (GR25): its
 * lower-cased copy (same length, so positions carry over) and trigger positions shared by key.
 */
export class Scan {
  private lowered?: string;
  private readonly shared = new Map<object, number[] | null>();

  constructor(readonly text: string) {}

  get lower(): string {
    this.lowered ??= lowerKeepingPositions(this.text);
    return this.lowered;
  }

  /** `find`'s positions, computed once per text for every rule that passes the same `key`. */
  positions(key: object, find: (scan: Scan) => number[] | null): number[] | null {
    let found = this.shared.get(key);
    if (found === undefined) {
      found = find(this);
      this.shared.set(key, found);
    }
    return found;
  }

  /** More starts than this and one pass of a rule's regex is cheaper than a try per start. */
  get denseStarts(): number {
    return Math.ceil(this.text.length / DENSE_STARTS);
  }
}

/** One try of a sticky regex costs about as much as this many characters of a full pass. */
const DENSE_STARTS = 24;

/**
 * Where a rule's match can start, ascending; the rule's regex is then tried there only (GR25).
 * Null: so many starts that the regex runs over the whole text instead.
 */
export type Starts = (scan: Scan) => number[] | null;

/** `toLowerCase` unless a character grows (`İ`), then character by character so spans stay put. */
function lowerKeepingPositions(text: string): string {
  const lower = text.toLowerCase();
  // The Kelvin sign lower-cases to an ASCII `k`: a word character where the text has none.
  if (lower.length === text.length && !text.includes('\u212A')) {
    return lower;
  }
  return text.replace(/[^]/g, (ch) => {
    const l = ch.toLowerCase();
    return l.length === 1 && (l.charCodeAt(0) >= 128 || ch.charCodeAt(0) < 128) ? l : ch;
  });
}

/** Every match index of `trigger` (a global regex) in the text or its lower-cased copy. */
export function triggerStarts(trigger: RegExp, on: 'text' | 'lower' = 'text'): Starts {
  const find = (scan: Scan): number[] | null => {
    const text = on === 'lower' ? scan.lower : scan.text;
    const out: number[] = [];
    const most = scan.denseStarts;
    trigger.lastIndex = 0;
    for (let m = trigger.exec(text); m; m = trigger.exec(text)) {
      if (out.length === most) {
        return null;
      }
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
  const merge = (scan: Scan): number[] | null => {
    const lists = sources.map((s) => s(scan));
    if (lists.some((l) => l === null)) {
      return null;
    }
    const all = (lists as number[][]).flat().sort((a, b) => a - b);
    return all.filter((p, i) => i === 0 || p !== all[i - 1]);
  };
  return (scan) => scan.positions(merge, merge);
}

/** A digit after no letter or digit: where every numeric identifier starts (GR25). */
export const NUMBER_STARTS = triggerStarts(/(?<![A-Za-z0-9])\d/g);
/** A digit, `+` or `(` after none of `[\w+.\-/]`: where a phone number can start. */
export const PHONE_STARTS = triggerStarts(/(?<![\w+.\-/])[\d+(]/g);
/** Up to five capitals and a digit (IBAN, postcodes, PAN, NINO), after no letter or digit. */
export const CAPITALS_DIGIT_STARTS = triggerStarts(/(?<![A-Za-z0-9])[A-Z]{1,5} ?\d/g);
