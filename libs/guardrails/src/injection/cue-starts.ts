import { Scan, literalTrie } from '../scan';
import { CUES } from './cues';

// GR28: one case-insensitive scan for the beginnings of every cue, then each cue is tried (sticky)
// only where one of its own beginnings starts.

interface Beginning {
  literal: string;
  cues: number[];
  /** A word: the cue's `\b` needs a non-word character before it. */
  word: boolean;
}

const byLiteral = new Map<string, Beginning>();
CUES.forEach((c, index) => {
  for (const literal of c.starts) {
    const b = byLiteral.get(literal) ?? { literal, cues: [], word: /^\w/.test(literal) };
    b.cues.push(index);
    byLiteral.set(literal, b);
  }
});
const byFirstChar = new Map<string, Beginning[]>();
for (const b of byLiteral.values()) {
  byFirstChar.set(b.literal[0], [...(byFirstChar.get(b.literal[0]) ?? []), b]);
}
const words = [...byLiteral.values()].filter((b) => b.word).map((b) => b.literal);
const signs = [...byLiteral.values()].filter((b) => !b.word).map((b) => b.literal);
const TRIGGER = new RegExp(`\\b${literalTrie(words)}|${literalTrie(signs)}`, 'gi');
const WORD = /\w/;

/** Whether `literal` (lower-case ASCII) is at `at`, in any case: what the cues' `i` flag matches. */
function startsAt(text: string, at: number, literal: string): boolean {
  for (let k = 0; k < literal.length; k += 1) {
    const c = text.charCodeAt(at + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== literal.charCodeAt(k)) {
      return false;
    }
  }
  return true;
}

/** For each cue of CUES, the positions where one of its beginnings starts (null: too many). */
export function cueStarts(scan: Scan): (number[] | null)[] {
  const text = scan.text;
  const starts: number[][] = CUES.map(() => []);
  TRIGGER.lastIndex = 0;
  for (let m = TRIGGER.exec(text); m; m = TRIGGER.exec(text)) {
    const at = m.index;
    const afterWord = at > 0 && WORD.test(text.charAt(at - 1));
    for (const b of byFirstChar.get(m[0][0].toLowerCase()) ?? []) {
      if ((b.word && afterWord) || !startsAt(text, at, b.literal)) {
        continue;
      }
      for (const cue of b.cues) {
        const list = starts[cue];
        if (list[list.length - 1] !== at) {
          list.push(at);
        }
      }
    }
    TRIGGER.lastIndex = at + 1;
  }
  return starts.map((list) => (list.length > scan.denseStarts ? null : list));
}
