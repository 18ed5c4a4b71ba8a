/** GR25: one text and the start positions its rules share, computed once. */
export class Scan {
  private readonly shared = new Map<object, unknown>();
  private digitCounts?: Uint8Array;

  constructor(readonly text: string) {}

  positions<T>(key: object, find: (scan: Scan) => T): T {
    if (!this.shared.has(key)) {
      this.shared.set(key, find(this));
    }
    return this.shared.get(key) as T;
  }

  digitsNear(at: number): number {
    this.digitCounts ??= new Uint8Array(this.text.length + 1);
    if (this.digitCounts[at] === 0) {
      let n = 0;
      for (let i = at; i < at + 40 && i < this.text.length; i += 1) {
        const c = this.text.charCodeAt(i);
        n += c >= 48 && c <= 57 ? 1 : 0;
      }
      this.digitCounts[at] = n + 1;
    }
    return this.digitCounts[at] - 1;
  }

  get denseStarts(): number {
    return Math.ceil(this.text.length / DENSE_STARTS);
  }
}

/** One try of a sticky regex costs about as much as this many characters of a full pass. */
const DENSE_STARTS = 24;

/** Ascending; null: so many that the rule's regex runs over the whole text instead. */
export type Starts = (scan: Scan) => number[] | null;

export function triggerStarts(trigger: RegExp): Starts {
  const find = (scan: Scan): number[] | null => {
    const text = scan.text;
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

function mergeSorted(a: number[], b: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++];
    if (out.length === 0 || out[out.length - 1] !== next) {
      out.push(next);
    }
  }
  return out;
}

export function unionStarts(...sources: Starts[]): Starts {
  const merge = (scan: Scan): number[] | null => {
    let all: number[] = [];
    for (const source of sources) {
      const list = source(scan);
      if (list === null) {
        return null;
      }
      all = mergeSorted(all, list);
    }
    return all.length > scan.denseStarts ? null : all;
  };
  return (scan) => scan.positions(merge, merge);
}

/** A digit after no letter or digit: where every numeric identifier starts (GR25). */
export const NUMBER_STARTS = triggerStarts(/(?<![A-Za-z0-9])\d/g);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

function signStarts(scan: Scan): number[] {
  const text = scan.text;
  const lists = ['+', '('].map((sign) => {
    const out: number[] = [];
    for (let at = text.indexOf(sign); at >= 0; at = text.indexOf(sign, at + 1)) {
      const next = text.charCodeAt(at + 1);
      if (isDigit(next) || (next === 40 && isDigit(text.charCodeAt(at + 2)))) {
        out.push(at);
      }
    }
    return out;
  });
  return mergeSorted(lists[0], lists[1]);
}

export const PHONE_STARTS = unionStarts(NUMBER_STARTS, (scan) =>
  scan.positions(signStarts, signStarts),
);
/** Up to five capitals and a digit (IBAN, postcodes, PAN, NINO), after no letter or digit. */
export const CAPITALS_DIGIT_STARTS = triggerStarts(/(?<![A-Za-z0-9])[A-Z]{1,5} ?\d/g);

const escapeChar = (c: string): string => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** V8 tries a flat list of literals one by one at every position; a trie rejects on the first. */
export function literalTrie(literals: readonly string[]): string {
  const groups = new Map<string, string[]>();
  let ends = false;
  for (const literal of new Set(literals)) {
    if (literal === '') {
      ends = true;
      continue;
    }
    groups.set(literal[0], [...(groups.get(literal[0]) ?? []), literal.slice(1)]);
  }
  const alternatives = [...groups].map(([first, rests]) => escapeChar(first) + literalTrie(rests));
  if (alternatives.length === 0) {
    return '';
  }
  const group = `(?:${alternatives.join('|')})`;
  if (ends) {
    return `${group}?`;
  }
  return alternatives.length === 1 ? alternatives[0] : group;
}
